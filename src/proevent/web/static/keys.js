// Keyboard navigation for the proevent viewer. Pages work without it: every key follows a link.
(function () {
  "use strict";
  function typing(el) {
    if (!el) return false;
    var tag = el.tagName;
    return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || el.isContentEditable;
  }
  function follow(id) {
    var a = document.getElementById(id);
    if (a && a.href) { window.location.href = a.href; return true; }
    return false;
  }

  // Case list: j/k move a highlight over the rows, Enter opens, / focuses the search box.
  var rows = Array.prototype.slice.call(document.querySelectorAll("tr.case-row"));
  var selected = -1;
  function select(i) {
    if (!rows.length) return;
    if (selected >= 0) rows[selected].classList.remove("selected");
    selected = Math.max(0, Math.min(rows.length - 1, i));
    rows[selected].classList.add("selected");
    rows[selected].scrollIntoView({ block: "nearest" });
  }
  rows.forEach(function (row, i) {
    row.addEventListener("click", function (ev) {
      if (ev.target.tagName !== "A") { window.location.href = row.getAttribute("data-href"); }
    });
  });

  // Case page: bring the current window into view inside the chat column.
  var current = document.querySelector("tbody.window.current");
  var chats = document.getElementById("chats");
  if (current && chats) { chats.scrollTop = Math.max(0, current.offsetTop - 48); }

  // Human mode: show only the value field that fits the chosen attribute.
  var attr = document.getElementById("update-attribute");
  function showValueFields() {
    var kind = { start: "time", end: "time", location: "text", description: "text", participants: "people" }[attr.value];
    document.querySelectorAll("[data-value-kind]").forEach(function (el) {
      el.hidden = el.getAttribute("data-value-kind") !== kind;
    });
  }
  if (attr) { attr.addEventListener("change", showValueFields); showValueFields(); }

  document.addEventListener("keydown", function (ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (typing(ev.target)) {
      if (ev.key === "Escape") ev.target.blur();
      return;
    }
    var handled = false;
    switch (ev.key) {
      case "ArrowRight": case "l": handled = follow("next-step"); break;
      case "ArrowLeft": case "h": handled = follow("prev-step"); break;
      case "]": case "n": handled = follow("next-case"); break;
      case "[": case "p": handled = follow("prev-case"); break;
      case "u": handled = follow("up"); break;
      case "j": case "ArrowDown": if (rows.length) { select(selected + 1); handled = true; } break;
      case "k": case "ArrowUp": if (rows.length) { select(selected - 1); handled = true; } break;
      case "Enter":
        if (selected >= 0) { window.location.href = rows[selected].getAttribute("data-href"); handled = true; }
        break;
      case "/":
        var box = document.getElementById("search");
        if (box) { box.focus(); box.select(); handled = true; }
        break;
    }
    if (handled) ev.preventDefault();
  });
})();
