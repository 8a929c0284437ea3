// The lobby of a cardgen play table: the host chooses the next table's sets, seats and language, and starts it.
// Its data comes from /api/TOKEN/lobby; starting posts the choice there. Plain JS, no build step.
"use strict";
(function () {
  var words = JSON.parse(document.getElementById("words").textContent);
  function say(key, fields) {
    var t = words[key];
    if (t === undefined) return key;
    return t.replace(/\{(\w+)\}/g, function (all, f) { return fields && f in fields ? String(fields[f]) : all; });
  }
  var token = decodeURIComponent(location.pathname.split("/").pop());
  var api = "/api/" + encodeURIComponent(token) + "/lobby";
  var data = null, seats = [], sending = false;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function showError(text) {
    var e = document.getElementById("error");
    e.textContent = text || ""; e.hidden = !text;
  }
  function kindLabel(k) { return k === "human" ? say("friend") : say("bot", {kind: k}); }

  function renderSeats() {
    var list = document.getElementById("seat-list");
    list.textContent = "";
    seats.forEach(function (kind, i) {
      var li = el("li", "lobby-seat");
      li.dataset.seat = i;
      if (i === 0) {
        li.appendChild(el("span", "host", say("you")));
      } else {
        var sel = el("select");
        sel.setAttribute("aria-label", say("seat_n", {n: i + 1}));
        data.kinds.forEach(function (k) {
          var o = el("option", "", kindLabel(k)); o.value = k; o.selected = k === kind; sel.appendChild(o);
        });
        sel.addEventListener("change", function () { seats[i] = sel.value; });
        li.appendChild(sel);
        var rm = el("button", "remove quiet", "×");
        rm.type = "button"; rm.title = say("remove_seat"); rm.setAttribute("aria-label", say("remove_seat"));
        rm.disabled = seats.length <= 2;
        rm.addEventListener("click", function () { seats.splice(i, 1); renderSeats(); });
        li.appendChild(rm);
      }
      list.appendChild(li);
    });
    document.getElementById("add-seat").disabled = seats.length >= data.max_players;
  }

  function render(d) {
    data = d;
    document.getElementById("to-table").href = d.table;
    var sets = document.getElementById("sets");
    Array.prototype.slice.call(sets.querySelectorAll("label")).forEach(function (l) { l.remove(); });
    d.sets.forEach(function (s) {
      var label = el("label", "set");
      var box = el("input"); box.type = "checkbox"; box.value = s.ref; box.checked = s.chosen;
      label.appendChild(box);
      label.appendChild(el("span", "", " " + s.title));
      sets.appendChild(label);
    });
    seats = d.seats.map(function (s) { return s.kind; });
    renderSeats();
    var lang = document.getElementById("lang");
    lang.textContent = "";
    d.langs.forEach(function (l) {
      var o = el("option", "", l.name); o.value = l.code; o.selected = l.code === d.lang; lang.appendChild(o);
    });
    var note = document.getElementById("note");
    note.textContent = d.over ? "" : say("not_over"); note.hidden = d.over;
    document.body.dataset.state = "ready";
  }

  function started(j) {
    if (!j.links.length) { location.href = j.table; return; }
    document.getElementById("choose").hidden = true;
    var box = document.getElementById("links");
    box.textContent = "";
    j.links.forEach(function (l) {
      var li = el("li", l.kept ? "kept" : "new");
      li.appendChild(el("strong", "", l.name + ": "));
      var a = el("a", "", l.link); a.href = l.link; li.appendChild(a);
      li.appendChild(el("span", "", " " + say(l.kept ? "link_kept" : "link_new")));
      box.appendChild(li);
    });
    document.getElementById("go").href = j.table;
    document.getElementById("ready").hidden = false;
    document.body.dataset.state = "started";
  }

  document.getElementById("add-seat").addEventListener("click", function () {
    if (seats.length < data.max_players) { seats.push(seats.length > 1 ? seats[seats.length - 1] : data.kinds[0]); renderSeats(); }
  });
  document.getElementById("choose").addEventListener("submit", function (e) {
    e.preventDefault();
    if (sending || !data) return;
    var chosen = Array.prototype.slice.call(document.querySelectorAll("#sets input:checked"))
      .map(function (b) { return b.value; });
    if (!chosen.length) { showError(say("no_set")); return; }
    sending = true; showError("");
    document.body.dataset.state = "starting";
    fetch(api, {method: "POST", headers: {"Content-Type": "application/json"},
                body: JSON.stringify({sets: chosen, seats: seats, lang: document.getElementById("lang").value})})
      .then(function (r) { return r.json().then(function (j) { return {ok: r.ok, j: j}; }); })
      .then(function (res) {
        sending = false;
        if (res.ok) started(res.j);
        else { document.body.dataset.state = "ready"; showError(res.j.error || say("refused")); }
      })
      .catch(function () { sending = false; document.body.dataset.state = "ready"; showError(say("no_answer")); });
  });
  fetch(api).then(function (r) { return r.json().then(function (j) { return {ok: r.ok, j: j}; }); })
    .then(function (res) { if (res.ok) render(res.j); else showError(res.j.error || say("no_answer")); })
    .catch(function () { showError(say("no_answer")); });
})();
