"""Reading a location for the ``places`` judge (:mod:`proevent.evaluate.places`): the fold tables
(abbreviations, kinds in other languages, place kinds, labels, platforms) and the parse of a
location into a head and qualifiers of canonical words, with labels bound to their numbers,
labelled units read apart, and the other readings of its parts (a room after its building, a
possessive after its address, a city in a head as a qualifier). Deciding stays in ``places``."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import NamedTuple

from proevent.evaluate import gazetteer
from proevent.evaluate.aliases import AliasIndex
from proevent.evaluate.normalize import normalize_location

_STOP = frozenset("the a an of and de la le les l el il gli los las der die das het du des da do di del della y und et"
                  .split())
_FOLD = {
    "st": "street", "saint": "street", "str": "street", "rd": "road", "ave": "avenue", "av": "avenue",
    "avda": "avenue", "avenida": "avenue", "blvd": "boulevard", "bd": "boulevard", "ln": "lane", "dr": "drive",
    "doctor": "drive", "ct": "court", "pkwy": "parkway", "sq": "square", "pl": "place", "plaza": "place",
    "hwy": "highway", "mt": "mount", "ft": "fort", "pt": "point", "hosp": "hospital", "univ": "university",
    "uni": "university", "natl": "national", "intl": "international", "stn": "station", "bldg": "building",
    "rm": "room", "laboratory": "lab", "center": "centre", "theater": "theatre", "hbf": "hauptbahnhof",
    "apt": "apartment", "fl": "floor", "first": "1st", "second": "2nd", "third": "3rd", "fourth": "4th",
    "fifth": "5th", "sixth": "6th", "seventh": "7th", "eighth": "8th", "ninth": "9th", "tenth": "10th",
    "strasse": "street", "ul": "street", "ulica": "street", "plac": "place", "platz": "place", "piazza": "place",
    "praca": "place", "pza": "place", "ctr": "centre", "gdns": "gardens", "cres": "crescent", "tce": "terrace",
    "mkt": "market", "mtn": "mountain", "jct": "junction", "expy": "expressway", "cir": "circle", "rte": "route",
    "hts": "heights", "pk": "park", "sch": "school", "coll": "college", "cath": "cathedral", "inst": "institute",
    "dept": "department", "hse": "house", "pde": "parade", "sankt": "street", "sint": "street", "ste": "street",
    "sainte": "street", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7",
    "eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12", "rue": "street", "calle": "street",
    "carrer": "street", "rua": "street", "mont": "mount", "conf": "conference", "chem": "chemistry",
    "phys": "physics", "eng": "engineering", "deli": "delicatessen", "gran": "grand", "grande": "grand",
    "bahnhof": "station", "mus": "museum", "nat": "national", "cntr": "centre", "bbq": "barbecue",
    "barbeque": "barbecue", "appartment": "apartment", "appartement": "apartment",
    "doutor": "drive", "doutora": "drive", "doctora": "drive", "dra": "drive", "docteur": "drive", "doktor": "drive",
    "dottore": "drive", "izq": "izquierda", "izqda": "izquierda", "izda": "izquierda", "dcha": "derecha",
    "esq": "esquerdo", "esquerda": "esquerdo", "dto": "direito",
    "direita": "direito", "prof": "professor", "sta": "santa", "sto": "santo", "vet": "veterinary",
    "med": "medical", "sci": "science", "acad": "academy", "assoc": "association", "elem": "elementary",
    "govt": "government",
    "pca": "place", "estrada": "road", "estr": "road", "carretera": "road", "ctra": "road", "travessa": "lane",
    "travesia": "lane", "trav": "lane", "avinguda": "avenue", "avgda": "avenue", "passeig": "paseo", "pso": "paseo",
    "lgo": "largo", "jalan": "street", "jl": "street", "jln": "street", "cl": "close", "terr": "terrace",
    "wy": "way", "bvd": "boulevard", "esp": "esplanade", "prom": "promenade", "cra": "carrera",
    "blk": "block",
}
"""Abbreviations to one written-out form ("St" is both Street and Saint, "Dr" both Drive and Doctor, in
the languages of street names too: "Rua Dr." is "Rua Doutor"; one word stands for both, as a reader takes
whichever fits), and a flat's side in Spanish and Portuguese addresses ("2º izq." is "2º izquierda",
"3º Esq" "3º esquerdo"); titles and kinds as people cut them ("Prof.", "Sta.", "Vet", "Med", "Sci"); street types
as each country's addresses cut or write them ("Pça." praça, "Estr." estrada, "Ctra." carretera: road; "Trav."
travessa: lane; "Avgda." avinguda; "Jl." / "Jln." jalan; "Cl." close, "Terr.", "Wy", "Esp.", "Prom."; Catalan
"Passeig" is Spanish "Paseo"), and the dotted Italian ones ("V.le", "P.za", "C.so": :data:`_DOTTED_STREET`)."""
_KIND_NAMES = {
    "museum": "museo musee museu muzeum", "gallery": "galleria galeria galerie", "theatre": "teatro theatro",
    "park": "parque parc parco", "garden": "jardin jardim giardino", "church": "iglesia eglise chiesa kirche igreja",
    "cathedral": "catedral cathedrale cattedrale", "palace": "palacio palais palazzo palast palacio",
    "bridge": "puente pont ponte brucke", "library": "biblioteca bibliotheque bibliothek",
    "university": "universidad universita universitat universite universidade universitario universitaria "
                  "universitaire universitair", "hospital": "ospedale hopital",
    "airport": "aeropuerto aeroporto aeroport flughafen", "stadium": "estadio stade stadio stadion estadi",
    "beach": "playa plage praia spiaggia", "castle": "castillo chateau castello schloss",
    "market": "mercado marche mercato cho pasar pazar pazari carsi souq suq rynek targ piac markt",
    "building": "edificio edifici batiment gebaude",
    "chapel": "capilla chapelle cappella kapelle", "clinic": "clinica klinik clinique kliniek",
    "mosque": "masjid mezquita mosquee moschee moskee camii cami",
    "basilica": "basilique basilika basiliek", "temple": "templo tempio tempel",
    "cafe": "kaffeehaus koffiehuis kahvila kawiarnia", "botanical": "botanico botanique botanischer botanisch",
    "station": "stazione estacion estacao",
}
"""A kind of place in other languages, read as the English word ("Museo Picasso" is "Picasso Museum")."""
_FOLD.update({other: english for english, others in _KIND_NAMES.items() for other in others.split()})
_NUMBER_SIGNS = frozenset({"no", "nr", "number"})
_ACRONYM_SKIP = frozenset({"the", "of", "and", "a", "an", "for"})
_HOME = frozenset({"place", "house", "flat", "apartment", "home"})
"""Home words: "Tom's place" = "Tom's house" = "Tom's"."""
_OWNED = frozenset({"apartment", "flat"})
"""Home words that after a bare name make it an owner's ("Sarah apartment"; "Gordon House", "Park
Place" are buildings and streets)."""
_STREET_TYPES = frozenset({"street", "road", "avenue", "boulevard", "lane", "drive", "court", "parkway", "square",
                           "highway", "way", "close", "crescent", "terrace", "viale", "corso", "paseo", "carrera",
                           "esplanade", "promenade"})
"""Street types, those with no English word among them ("Viale", "Corso", "Paseo", Colombia's "Carrera")."""
_STATION_WORDS = frozenset({"station"})
"""A station qualifier may lack the word ("at Kings Cross" / "King's Cross station"), unless the bare
name is a city ("Leeds station" is not "Leeds")."""
_COMPASS = frozenset({"n", "s", "e", "w", "ne", "nw", "se", "sw", "north", "south", "east", "west", "northeast",
                      "northwest", "southeast", "southwest"})
_COMPASS_CUT = {"n": "north", "s": "south", "e": "east", "w": "west", "ne": "northeast", "nw": "northwest",
                "se": "southeast", "sw": "southwest"}
"""A compass point cut to its letters after a street's type: "Queen St W" is "Queen Street West" (alone, "W" may be
a letter of a building or a room)."""
_HOTEL_NAMES = frozenset({"palace", "inn", "court"})
"""Kinds a hotel's name is made of: "Taj Mahal Palace" is the "Taj Mahal Palace Hotel" (but "Kew
Gardens" is not the "Kew Gardens Hotel")."""
_VENUE_TYPES = frozenset({"pub", "bar", "cafe", "coffee", "restaurant", "studio", "gym", "hotel"})
"""A venue's kind, added to its name: "Old Bell" = "Old Bell pub", "the Savoy" = "Savoy Hotel"."""
_IMPLIED_KIND = {"elementary": "school", "primary": "school", "secondary": "school", "grammar": "school",
                 "high": "school", "middle": "school", "junior": "school", "medical": "centre"}
"""A name's last word that says its kind: "Greenwood Elementary" is "Greenwood Elementary School"."""
_VENUE_WORDS = frozenset({"bar", "pub", "restaurant", "cafe", "club", "bistro", "brasserie", "diner", "bakery", "salon",
                          "barber", "barbers", "shop", "store", "boutique", "gym", "pizzeria", "trattoria", "taverna"})
"""Words of a description that make a possessive name a business ("drinks after work at the bar":
"Sophie's" is a bar, not "Sophie's flat")."""
_VENUE_CUE = "#venue"

_VENUE_PREFIXES = frozenset({"restaurant", "ristorante", "restaurante", "trattoria", "osteria", "pizzeria", "cafe",
                             "caffe", "brasserie", "bistro", "taverna", "taberna", "gasthaus", "gasthof", "coffee",
                             "bar"})
"""A venue's kind written before its name: "Ristorante Da Enzo" = "Da Enzo", "The Coffee Lantern" = "the Lantern" (a
city's or region's name stays apart: "Bar Italia" is no "Italia")."""
_PLACE_KINDS = _STREET_TYPES | _HOME | _VENUE_TYPES | frozenset({
    "beach", "station", "airport", "hauptbahnhof", "market", "express", "hub", "inn", "hotel", "motel", "park",
    "garden", "gardens", "centre", "mall", "shop", "store", "hall", "museum", "gallery", "church", "school",
    "college", "university", "hospital", "library", "office", "stadium", "arena", "terminal", "gate", "platform",
    "room", "floor", "building", "court", "pitch", "field", "car", "bridge", "tower", "castle", "palace",
    "opera", "theatre", "cinema", "zoo", "lake", "river", "hill", "bay", "port", "harbour", "pier", "quay",
    "grill", "kitchen", "diner", "bakery", "thai", "deli", "delicatessen", "roastery", "reserve", "outlet", "annex",
    "wing", "corner",
    "cathedral", "basilica", "abbey", "temple", "mosque", "synagogue", "shrine", "chapel", "monastery", "fort",
    "barracks", "fountain", "statue", "memorial", "monument", "observatory", "aquarium", "planetarium", "heath",
    "common", "moor", "forest", "woods", "metro", "tram", "underground", "tube", "basin", "marina", "dock", "docks",
    "wharf", "quarter", "clinic", "coworking", "bookshop", "bookstore", "pharmacy", "salon", "spa", "lounge",
    "ballroom", "campus", "playground", "skatepark", "bandstand", "lido",
})
"""Words that make a different place when added to a name ("Brighton" / "Brighton Beach")."""
_TRANSLIT = str.maketrans({"ł": "l", "ø": "o", "đ": "d", "ħ": "h", "ı": "i", "æ": "ae", "œ": "oe", "þ": "th"})
_PLATFORMS = {
    "zoom": "zoom", "meet": "meet", "hangouts": "meet", "teams": "teams", "skype": "skype", "facetime": "facetime",
    "webex": "webex", "discord": "discord", "whatsapp": "whatsapp", "slack": "slack", "twitch": "twitch",
    "phone": "phone", "telephone": "phone", "jitsi": "jitsi", "whereby": "whereby", "gotomeeting": "gotomeeting",
    "bluejeans": "bluejeans", "signal": "signal", "telegram": "telegram", "wechat": "wechat", "viber": "viber",
    "messenger": "messenger", "chime": "chime", "ringcentral": "ringcentral", "gmeet": "meet", "msteams": "teams",
    "hangout": "meet", "zoomcall": "zoom",
}
_URL = re.compile(r"(?:https?://)?(?:www\.)?([a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|us|si|me|net|io|co|tv|gg))(?:/\S*)?",
                  re.IGNORECASE)
_DOMAINS = {"meet.jit.si": "jitsi", "jit.si": "jitsi", "meet.google.com": "google meet", "zoom.us": "zoom",
            "zoom.com": "zoom", "teams.microsoft.com": "teams", "teams.live.com": "teams", "whereby.com": "whereby",
            "webex.com": "webex", "discord.com": "discord", "discord.gg": "discord", "skype.com": "skype",
            "slack.com": "slack", "wa.me": "whatsapp", "t.me": "telegram", "gotomeeting.com": "gotomeeting",
            "bluejeans.com": "bluejeans", "twitch.tv": "twitch"}
"""A meeting's web address, its path dropped, read as its platform's name ("meet.jit.si/abc" is Jitsi)."""
_PRODUCT_WORDS = {"jitsi": "meet"}
"""A word a platform's product name carries ("Jitsi Meet" is Jitsi, not Google Meet)."""
_GENERIC_ONLINE = frozenset({"online", "virtual", "video", "videocall", "remote", "web", "vid", "vidcall", "videochat"})
"""Words that make a meeting online on no platform in particular, chat's "vid" for video among them."""
_ONLINE_FILLER = frozenset({
    "call", "meeting", "chat", "voice", "huddle", "link", "invite", "id", "microsoft", "ms", "google", "cisco",
    "com", "us", "in", "on", "via", "conference", "channel", "server", "calendar", "app", "dial", "vc",
})
_SPLIT = re.compile(r"\s*(?:[,;()\[\]]|\s-\s|\s–\s|\s(?:on|at|in)\s)\s*", re.IGNORECASE)
_CALLE = re.compile(r"(?<!\w)c/\s*", re.IGNORECASE)
"""Spanish "C/ Mayor" is "Calle Mayor"."""
_DOTTED_STREET = {"v.le": "viale ", "p.za": "piazza ", "p.zza": "piazza ", "p.le": "piazzale ", "c.so": "corso ",
                  "l.go": "largo ", "c.da": "contrada "}
_DOTTED = re.compile(r"(?<![\w.])(" + "|".join(re.escape(k) for k in _DOTTED_STREET) + r")\s*", re.IGNORECASE)
"""Italian street types written with a dot inside ("V.le Monza" is "Viale Monza", "P.zza Duomo" "Piazza Duomo")."""
_UNI = re.compile(r"(?<!\w)u\.?(?=\s+(?:de|of|do|da|di)\s)", re.IGNORECASE)
""""U. de Chile", "u of Toronto": a university."""
_STREET_NEXT = re.compile(r"\s(?=(?:rue|calle|carrer|rua|via|viale|corso|avenida|avda)\s)", re.IGNORECASE)
"""A street written after a name in one part ("café kosmos rue de la roquette")."""
_NAMED_ROOM = re.compile(r"(?<!\w)(?:room|rm|sala|salle|raum)\s+[\w.-]*\d[\w.-]*\s*\(\s*([^()\d]+?)\s*\)",
                         re.IGNORECASE)
"""A room's number with its name in brackets ("Room 1.04 (Turing)"): the name is its other name."""
_LETTER_DOT = re.compile(r"(?<![\w.])([^\W\d_])\.(?=\d)")
"""A room's or building's letter written with a dot before its number ("G.03", "B.2.14") is the code without it
("G03", "B2.14")."""
_LECTURE_THEATRE = re.compile(r"(?<!\w)lt\s?(?=\d)", re.IGNORECASE)
""""LT1" is "Lecture Theatre 1"."""
_EMERGENCY = re.compile(r"(?<!\w)(?:accident\s*(?:&|and)\s*emergency|a\s*(?:&|and)\s*e)(?!\w)", re.IGNORECASE)
""""A&E" (accident and emergency) is a hospital's emergency department (:mod:`proevent.evaluate.placedepts`)."""
_MEETING_ROOM = re.compile(r"(?<![\w.])mr(?=\d)", re.IGNORECASE)
""""MR2" is "Meeting Room 2", glued to its number only ("Mr 2" may be a title)."""
_GLUED_LABEL = re.compile(r"(?<![\w.])(hs|rm|bldg|room|hall|gate|platform|studio|lab|suite|level|ward|bay|seat|block"
                          r"|pier|sala|salle|raum|aula)(?=\d)", re.IGNORECASE)
"""A label abbreviated or written out glued to its number ("HS1", "Rm101", "Gate12") is the label and the number
("LT1" is read by :data:`_LECTURE_THEATRE`)."""
_STR_ABBREV = re.compile(r"(?<=[^\W\d_]{3})str\.(?=\s|$)", re.IGNORECASE)
_STREET_COMPOUND = re.compile(r"(?<=[^\W\d_]{3})(?:strasse|straße)(?=[\s,.]|$)", re.IGNORECASE)
"""A German street name written as one word is the name and "Straße" ("Gumpendorferstrasse" is
"Gumpendorfer Straße"; "Hauptstr." too, once written out)."""
_COMPOUND_KINDS = re.compile(r"(?<!\w)hauptgeb(?:ä|a)ude(?!\w)", re.IGNORECASE)
""""Hauptgebäude" is "main building" (a kind in another language written as one word)."""
_POSSESSIVE = re.compile(r"['’ʼ]s?$")
_MODIFIERS = frozenset({
    "central", "main", "grand", "royal", "old", "new", "upper", "lower", "great", "little", "big", "high", "city",
    "national", "international", "public", "general", "union", "inner", "outer", "middle", "green", "red", "blue",
    "white", "black", "golden",
}) | _COMPASS
"""Common modifiers: a name made only of them and place kinds is read in its order ("Central Park"
is not "Park Central")."""
_GENERIC = _PLACE_KINDS | _MODIFIERS
_NEWER = frozenset({"grand", "new", "old", "great", "little", "upper", "lower", "north", "south", "east", "west"})
"""Modifiers that, put before a name ending in its kind, name another place after it ("Grand Egyptian Museum" is
not the Egyptian Museum; the alias table says where one is the same: "Royal Albert Hall")."""
_DESCRIPTIVE = frozenset({"botanical", "botanic", "thermal", "weekend", "night", "flea", "historic", "municipal",
                          "memorial", "heritage", "landmark"}) | frozenset({"ski", "resort"})
"""Words that describe a place of a name without making another one ("Chatuchak Weekend Market", "Val Thorens ski
resort": a resort is named by its place)."""
_RESORT = frozenset({"ski", "resort"})
"""A resort's words, which describe a name of its own but make a kind of place another ("Kew Gardens resort")."""
_TOPONYM_PARTS = ("town", "ville", "vale", "dale", "ford", "field", "mouth", "stead", "borough", "bury", "dorf",
                  "stadt")
"""Parts of place names that a one-letter slip would not make ("Kingston" / "Kingstown")."""
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
         "ninety": 90}
_UNIT = re.compile(r"^([1-9])(st|nd|rd|th)$")
_LABELS = frozenset({
    "room", "hall", "level", "bay", "gate", "terminal", "platform", "floor", "seat", "unit", "suite", "studio", "lab",
    "theatre", "screen", "auditorium",
    "building", "block", "wing", "ward", "court", "pitch", "stage", "table", "desk", "section", "row", "stand", "track",
    "door", "entrance", "exit", "lot", "zone", "pier", "berth", "apartment", "flat", "box", "stall", "booth",
    "ballroom",
})
"""Labels that bind the number or letter after them ("Hall 2 Room 3" is not "Hall 3 Room 2")."""
_LABEL_FORMS = {"sala": "room", "salle": "room", "raum": "room", "aula": "room", "stanza": "room", "sal": "room",
                "zaal": "hall", "halle": "hall", "horsaal": "hall", "saal": "hall", "seminarraum": "room",
                "piso": "floor", "etage": "floor", "planta": "floor",
                "andar": "floor", "stock": "floor", "puerta": "door", "porta": "gate", "bloque": "block",
                "bloco": "block", "hs": "hall", "bat": "building"}
"""A label in another language or abbreviated, read as the English one before a number or letter ("sala 2.14" is
"Room 2.14", "Halle 7" "Hall 7", "HS 1" (Hörsaal) "Hall 1", "Bât. A" (Bâtiment) "Building A"; "Sala" alone, "Halle"
the city, stay names)."""
_ROOM_LABEL = re.compile(r"^(?:room|hall|suite|floor|level|unit|apartment|flat|studio|lab)_")
"""Labels of a room or floor inside a building, which a head may end with ("Sakura Clinic room 3"; not
"Heathrow Terminal 5", "Old Trafford Stand 2")."""
_ROOM_KINDS = frozenset({"meeting", "conference", "seminar", "lecture", "class", "board", "training", "consultation",
                         "consulting", "exam", "examination", "treatment", "therapy", "interview", "study", "reading",
                         "function", "reuniones", "reunioes", "reunion", "besprechungsraum", "reunions"})
"""Kinds of room dropped before "room" when the room has a name ("Meeting room Fjord" = "Fjord room")."""
_BY_COMPASS = frozenset({"campus", "side", "end", "entrance", "exit", "stand", "block", "lot", "concourse", "lobby"})
"""Besides place kinds, words a compass point before them binds ("North Gate, South Campus")."""
_ORDINAL = re.compile(r"^(\d+)(?:st|nd|rd|th)$")
_STOREY = re.compile(r"^\d{1,2}f$")
_BIND = "_"
"""Joins a label to its number ("room_3") or a compass point to its word ("north_gate")."""
_HOME_MARK = "'"
"""Ends an owner's word whose home word was dropped ("Tom's place" -> "toms'"): it keeps its "s"
("Tom's place" is "Tom's" but not "Tom", a person)."""


class Parsed(NamedTuple):
    """A location read once (cached): its parts (head first), all their words, its normalised text,
    its raw head, and whether its words may be read in any order (a part after a comma, an "of"
    or article inside, a possessive or a number: "Library, Main", "University of Lisbon")."""

    parts: tuple[tuple[str, ...], ...]
    flat: tuple[str, ...]
    norm: str
    raw_head: str
    free_order: bool


def _words(part: str) -> tuple[tuple[str, ...], bool]:
    """Canonical words of one part of a location (raw text), and whether its order is free."""
    part = _UNI.sub("universidad", _LECTURE_THEATRE.sub("lecture theatre ", _CALLE.sub("calle ", part)))
    part = _EMERGENCY.sub("emergency", _MEETING_ROOM.sub("meeting room ", part))
    part = _LETTER_DOT.sub(r"\1", _DOTTED.sub(lambda m: _DOTTED_STREET[m.group(1).lower()], part))
    part = _GLUED_LABEL.sub(r"\1 ", part)
    part = _COMPOUND_KINDS.sub("main building", part)
    raw = _STREET_COMPOUND.sub(" strasse", _STR_ABBREV.sub("strasse", part)).split()  # "Hauptstr." is "Haupt Straße"
    poss = [bool(_POSSESSIVE.search(w)) for w in raw]
    words: list[str] = []
    for w, p in zip(raw, poss):
        for i, piece in enumerate(normalize_location(w).translate(_TRANSLIT).split()):
            words.append(piece if i else (piece + "\x00" if p else piece))
    # an article or "of" is dropped where more words follow ("Conference Room A" keeps its "a")
    # and a letter after a label is its code ("Building A Room 3", "Bât. A salle 201")
    out = [w for i, w in enumerate(words) if w.rstrip("\x00") not in _STOP or i == len(words) - 1 or (
        len(w) == 1 and i and _label_word(words[i - 1]))] or words
    leading = bool(words) and words[0] in _STOP
    free = len(out) < len(words) - leading or any(poss) or any(c.isdigit() for c in part)
    folded: list[tuple[str, bool]] = []
    for w in out:
        mark, w = w.endswith("\x00"), w.rstrip("\x00")
        w = _FOLD.get(w, w)
        unit = _UNIT.match(w)
        if unit and folded and folded[-1][0] in _TENS:  # "Forty-Second" is "42nd"
            w = f"{_TENS[folded.pop()[0]] // 10}{w}"
        if folded and folded[-1][0] in _STREET_TYPES and w in _COMPASS_CUT:
            w = _COMPASS_CUT[w]  # "Queen St W" is "Queen Street West"
        if folded and folded[-1][0] in _NUMBER_SIGNS and w[:1].isdigit():
            folded.pop()  # "No. 10 Downing Street" is "10 Downing Street"
        folded.append((w, mark))
    folded = [f for i, f in enumerate(folded)  # "JFK International Airport" is "JFK Airport"
              if not (f[0] == "international" and folded[i + 1:i + 2] and folded[i + 1][0] == "airport")]
    if len(folded) == 2 and folded[1][0] in _HOME and folded[0][0].endswith("s") and len(folded[0][0]) >= 4 \
            and not gazetteer.is_place_name(folded[0][0]):
        folded[0] = (folded[0][0], True)  # "Lucys apartment" is Lucy's, its apostrophe dropped
    elif len(folded) == 2 and folded[1][0] in _OWNED and not folded[0][1] and folded[0][0].isalpha() \
            and len(folded[0][0]) >= 3 and folded[0][0] not in _GENERIC and folded[0][0] not in _STOP \
            and not gazetteer.is_place_name(folded[0][0]):
        folded[0] = (folded[0][0] + "s", True)  # "Sarah apartment" is Sarah's apartment, its "'s" dropped
    if len(folded) > 1 and folded[-1][0] in _HOME and folded[-2][1]:
        folded.pop()  # "Tom's place" -> "toms'"
        folded[-1] = (folded[-1][0] + _HOME_MARK, False)
    if len(folded) == 2 and folded[0][0] in {"my", "at"} and folded[1][0] in _HOME:
        folded = [("home", False)]
    elif len(folded) == 2 and folded[0][0] in {"my", "at"}:  # "my mum's house" is "mum's house"
        folded = folded[1:]
    return _bind([w for w, _ in folded]), free


def _label_word(word: str) -> bool:
    """A label, written out, abbreviated or in another language ("room", "bldg", "salle", "bat")."""
    word = _FOLD.get(word, word)
    return _LABEL_FORMS.get(word, word) in _LABELS


def _code(word: str) -> bool:
    """A room's or gate's number or letter ("3", "4b", "d14", "c")."""
    return any(c.isdigit() for c in word) or (len(word) == 1 and word.isalpha())


def _bind(words: list[str]) -> tuple[str, ...]:
    """Labels joined to their numbers or letters ("room_2_13", "floor_2" for "2nd floor"), a compass
    point to the place word after it ("north_gate"), and a named room read in one form ("Meeting
    room Fjord", "Fjord room": "room_fjord"); a bag of words then keeps which number is whose."""
    words = [w for i, w in enumerate(words)  # "Lecture Hall H3" is "Hall H3"
             if not (w in _ROOM_KINDS and words[i + 1:i + 2] == ["hall"] and _code("".join(words[i + 2:i + 3])))]
    unkinded = [w for i, w in enumerate(words) if not (w in _ROOM_KINDS and words[i + 1:i + 2] == ["room"])]
    if len(unkinded) == 2 and "room" in unkinded:
        name = unkinded[1] if unkinded[0] == "room" else unkinded[0]
        if name != "room" and name not in _PLACE_KINDS and len(name) >= 2 or _code(name):
            return (f"room{_BIND}{name}",)
    words = [w for i, w in enumerate(words)  # "Sala de reuniones 3" is "Sala 3"
             if not (w in _ROOM_KINDS and i and _LABEL_FORMS.get(words[i - 1], words[i - 1]) == "room"
                     and _code("".join(words[i + 1:i + 2])))]
    words = [_LABEL_FORMS.get(w, w) if _code("".join(words[i + 1:i + 2])) else w for i, w in enumerate(words)]
    out: list[str] = []
    i = 0
    while i < len(words):
        w, nxt = words[i], words[i + 1] if i + 1 < len(words) else ""
        ordinal = _ORDINAL.match(w)
        if w in _LABELS and nxt and _code(nxt):
            j = i + 1
            while j < len(words) and _code(words[j]):
                j += 1
            out.append(_BIND.join([w, *words[i + 1:j]]))
            i = j
            continue
        if ordinal and nxt in ("floor", "level"):
            out.append(f"{nxt}{_BIND}{ordinal.group(1)}")
        elif _STOREY.match(w):  # "1F" is the first floor
            out.append(f"floor{_BIND}{w[:-1]}")
            i += 1
            continue
        elif w in _COMPASS and (nxt in _PLACE_KINDS or nxt in _BY_COMPASS):
            out.append(f"{w}{_BIND}{nxt}")
        else:
            out.append(w)
            i += 1
            continue
        i += 2
    return tuple(out)


def _key(words: tuple[str, ...]) -> str:
    """Canonical words as the gazetteer's key (bound words apart again)."""
    return " ".join(words).replace(_BIND, " ")


def canonical_name(name: str) -> str:
    """A name's canonical words joined by spaces (bound words as one: "hall_2")."""
    return " ".join(_words(name)[0])


def gazetteer_key(name: str) -> str:
    """A name as the gazetteer's key: its canonical words, bound words apart ("north bay")."""
    return _key(_words(name)[0])


def _unmarked(text: str) -> str:
    """``text`` without accents, case kept."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def _labelled(word: str) -> bool:
    """A label bound to its number or letter ("room_3_12", "building_5")."""
    return word.partition(_BIND)[0] in _LABELS and _BIND in word


def _address(part: tuple[str, ...]) -> bool:
    """A street address: a number, then a street ("14 Elm Road")."""
    return len(part) >= 3 and part[0][:1].isdigit() and part[-1] in _STREET_TYPES


def _units(parts: list[tuple[str, ...]]) -> tuple[tuple[str, ...], ...]:
    """Labelled units written together read apart ("room 3.12 bldg 5" is "Room 3.12, Building 5"), and
    rooms ending a head after their building's name ("Sakura Clinic room 3" is "Sakura Clinic, Room 3")."""
    out: list[tuple[str, ...]] = []
    for at, part in enumerate(parts):
        cut = [i for i in range(1, len(part)) if _labelled(part[i]) and (_labelled(part[i - 1]) or (
            at == 0 and all(_labelled(w) for w in part[i:]) and _ROOM_LABEL.match(part[i])
            and sum(not _labelled(w) and w not in _GENERIC for w in part[:i]) >= 1))]
        out += [part[i:j] for i, j in zip([0, *cut], [*cut, len(part)])]
    return tuple(out)


def _city_apart(parsed: Parsed, other: Parsed) -> Parsed:
    """A city that starts or ends a head read as a qualifier, and a head that is a city with a
    name after it read after the name ("bangkok wat pho temple" is "Wat Pho Temple, Bangkok";
    "Marrakech, Jemaa el Fna" is "Jemaa el Fna, Marrakech"), when the other side names that city
    too and the rest is a name of its own (no city, a word besides kinds and modifiers)."""
    head, rest = parsed.parts[0], list(parsed.parts[1:])

    def named(words: tuple[str, ...]) -> bool:
        return bool(words) and not gazetteer.is_place_name(_key(words)) and any(
            w not in _GENERIC and not _labelled(w) for w in words)

    def city(words: tuple[str, ...]) -> bool:
        return gazetteer.is_place_name(_key(words)) and all(w in other.flat for w in words)

    if rest and city(head) and named(rest[0]) and not _address(rest[0]):
        return parsed._replace(parts=(rest[0], head, *rest[1:]))
    if len(head) >= 3:
        if city(head[:1]) and named(head[1:]):
            return parsed._replace(parts=(head[1:], head[:1], *rest))
        if city(head[-1:]) and named(head[:-1]):
            return parsed._replace(parts=(head[:-1], head[-1:], *rest))
    return parsed


def split_as(parsed: Parsed, other: Parsed) -> Parsed:
    """A head that is two of ``other``'s parts written together, in either order, read as those
    parts ("Makati Shangri-La Grand Ballroom" against "Grand Ballroom, Makati Shangri-La": the
    ballroom of the hotel), written as ``other`` writes them; articles play no part. ``parsed`` itself
    when it is not."""
    def bare(words: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(w for w in words if w not in _STOP)

    head, theirs = bare(parsed.parts[0]), [bare(p) for p in other.parts]
    for i in range(1, len(head)):
        front, back = head[:i], head[i:]
        if front in theirs and back in theirs and front != back:
            pair = tuple(other.parts[j] for j in sorted((theirs.index(front), theirs.index(back))))
            return parsed._replace(parts=(*pair, *parsed.parts[1:]), flat=tuple(w for p in pair for w in p)
                                   + tuple(w for p in parsed.parts[1:] for w in p), free_order=True)
    return parsed


def _venue_named(part: tuple[str, ...]) -> bool:
    """A qualifier naming a venue: a kind with a name that is no city ("Kirkgate Market"), not a
    street, an address or a room."""
    return len(part) >= 2 and any(w in _PLACE_KINDS and w not in _STREET_TYPES for w in part) and not (
        _address(part) or any(_BIND in w for w in part) or gazetteer.is_place_name(_key(part))) and any(
        w not in _GENERIC for w in part)


def _rearranged(parsed: Parsed) -> Parsed:
    """Another reading of a location's parts: a room before its building after it ("Room 204, St
    Mary's Hospital" has the hospital for head), or a possessive given with its address after the
    address ("Mum's, 14 Elm Road" is at 14 Elm Road; "Rosa's, 12 Mill Road" may be a café there);
    ``parsed`` itself when neither applies."""
    out = list(parsed.parts)
    if len(out) > 1 and all(_labelled(w) for w in out[0]) and not all(_labelled(w) for p in out for w in p):
        rooms = [p for p in out if all(_labelled(w) for w in p)]
        out = [p for p in out if p not in rooms] + rooms
    elif len(out) > 1 and _address(out[1]) and len(out[0]) == 1 and (
            out[0][0].endswith(_HOME_MARK) or _POSSESSIVE.search(parsed.raw_head.strip())):
        out = out[1:] + out[:1]
    else:
        return parsed
    return parsed._replace(parts=tuple(out))


def _street_apart(part: str) -> list[str]:
    """A part split before a street that follows a name of two words or more ("café kosmos rue de la
    roquette" is "café kosmos, rue de la roquette"; "Hotel Via Roma" stays whole)."""
    cut = next((m.start() for m in _STREET_NEXT.finditer(part) if len(part[:m.start()].split()) >= 2), None)
    return [part] if cut is None else [part[:cut], part[cut + 1:]]


def room_named(location: str) -> str:
    """``location`` with a bracketed room name read as the room ("Room 1.04 (Turing), Level 1" is
    "Turing room, Level 1"); ``location`` itself when it has none."""
    return _NAMED_ROOM.sub(lambda m: f"{m.group(1)} room", location)


def _platform_of(url: re.Match[str]) -> str:
    """The platform a web address is on, its subdomains aside ("us02web.zoom.us/j/1" is Zoom); the
    address itself when it is none of :data:`_DOMAINS`."""
    labels = url.group(1).lower().split(".")
    return next((_DOMAINS[d] for d in (".".join(labels[i:]) for i in range(len(labels) - 1)) if d in _DOMAINS),
                url.group(0))


_CHANNEL = re.compile(r"(?<![\w#])#[^\W\d_][\w-]*")
"""A channel of a chat platform ("Discord voice channel #general")."""


_MEETING_CODE = re.compile(r"(?<![\w-])(?:[a-z]{3}-[a-z]{4}-[a-z]{3}|\d{3}[ -]?\d{3,4}[ -]?\d{3,4})(?![\w-])",
                           re.IGNORECASE)
"""A meeting's code as platforms write it: Google Meet's "abc-defg-hij", a Zoom-style id of 9 to 11 digits
("123 4567 8901")."""


def _meeting_code(code: str) -> str:
    """A meeting's code in one form: the code of :data:`_MEETING_CODE` it holds (digits joined), else itself."""
    found = _MEETING_CODE.search(code)
    return re.sub(r"[ -]", "", found.group(0)) if found and found.group(0)[:1].isdigit() else (
        found.group(0).lower() if found else code)


def _spoken_code(location: str) -> re.Match[str] | None:
    """A meeting's code written beside its platform's name in words ("Google Meet link abc-defg-hij",
    "Zoom ID 123 456 7890"; not a phone number)."""
    if "/" in location or "phone" in location.lower():
        return None
    found = _MEETING_CODE.search(location)
    if found is None or _PLATFORMS.keys().isdisjoint(normalize_location(location[:found.start()]).split()):
        return None
    return found


@lru_cache(maxsize=65536)
def meeting(location: str) -> str | None:
    """The one meeting a location names on its platform: a meeting's web address with its code
    ("meet.google.com/xyz-abcd-efg", "zoom.us/j/123"; the query after "?" aside), its code said after
    its platform's name ("Google Meet link xyz-abcd-efg", "Zoom ID 123 456 7890") or a channel of a
    platform ("Discord #general"); ``None`` when it names none (a platform alone, a place)."""
    if "/" in location:
        for url in _URL.finditer(location):
            platform = _platform_of(url)
            if platform != url.group(0):
                code = url.group(0)[url.end(1) - url.start(0):].split("?")[0].split("#")[0].strip("/").lower()
                if code:
                    return f"{_PLATFORMS.get(platform.split()[-1], platform)}/{_meeting_code(code)}"
    spoken = _spoken_code(location)
    if spoken is not None:
        platform = next(_PLATFORMS[w] for w in normalize_location(location[:spoken.start()]).split() if w in _PLATFORMS)
        return f"{platform}/{_meeting_code(spoken.group(0))}"
    if "#" in location and not _PLATFORMS.keys().isdisjoint(normalize_location(location).split()):
        channel = _CHANNEL.search(location)
        if channel:
            return channel.group(0).lower()
    return None


@lru_cache(maxsize=65536)
def parse(location: str) -> Parsed:
    """The head and qualifiers of a location, each as canonical words (empty parts left out); a
    platform's channel is left to :func:`meeting`."""
    if meeting(location) is not None and "#" in location:
        location = _CHANNEL.sub("", location)
    spoken = _spoken_code(location)
    if spoken is not None:  # the code is the meeting's, read by :func:`meeting`; the rest names its platform
        location = location[:spoken.start()] + location[spoken.end():]
    location = _URL.sub(_platform_of, location)
    raw_parts = [q for p in _SPLIT.split(_unmarked(location).strip()) for q in _street_apart(p)]  # "ín" as "in"
    read = [_words(p) for p in raw_parts]
    parts = _units([_aliases().fold(w) for w, _ in read if w])
    norm = normalize_location(location).translate(_TRANSLIT)
    if not parts:
        parts = ((norm,),)
    free = len(parts) > 1 or any(f for _, f in read)
    return Parsed(parts, tuple(w for p in parts for w in p), norm, raw_parts[0], free)


@lru_cache(maxsize=1)
def _aliases() -> AliasIndex:
    """The alias table in canonical words (built on the first question)."""
    def canon(name: str) -> tuple[str, ...]:  # read as a location is, its parts joined
        return tuple(w for part in _SPLIT.split(_unmarked(name).strip()) for w in _words(part)[0])

    return AliasIndex(gazetteer.alias_table(), canon, gazetteer.is_place_name)
