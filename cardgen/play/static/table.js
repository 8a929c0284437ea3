// The cardgen play table: draws one seat's view and sends that seat's moves. Plain JS, no build step.
// The server pushes a new view after every change (server-sent events); a move's answer is the new view too.
// The page's words come with the page (#words: the catalogue's `play.page` in the table's language).
"use strict";
(function () {
  var words = JSON.parse(document.getElementById("words").textContent);
  function say(key, fields) {
    var t = words[key];
    if (t === undefined) return key;
    return t.replace(/\{(\w+)\}/g, function (all, f) { return fields && f in fields ? String(fields[f]) : all; });
  }
  var token = decodeURIComponent(location.pathname.split("/").pop());
  var api = "/api/" + encodeURIComponent(token);
  var view = null, selected = -1, sending = false;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function cardImg(c, cls) {
    var img = el("img", cls || "");
    img.src = "/card/" + c.card + ".png";
    img.alt = c.name; img.title = c.name;
    return img;
  }
  function showError(text) {
    var e = document.getElementById("error");
    e.textContent = text || ""; e.hidden = !text;
  }

  function send(m) {
    if (sending || !view) return;
    sending = true;
    var body = JSON.stringify({kind: m.kind, card: m.card, target: m.target, choice: m.choice, version: view.version});
    fetch(api + "/move", {method: "POST", headers: {"Content-Type": "application/json"}, body: body})
      .then(function (r) { return r.json().then(function (j) { return {ok: r.ok, j: j}; }); })
      .then(function (res) {
        sending = false;
        if (res.ok) { selected = -1; showError(""); render(res.j); }
        else { showError(res.j.error || say("refused")); if (res.j.view) render(res.j.view); }
      })
      .catch(function () { sending = false; showError(say("no_answer")); });
  }

  function renderSeats(v) {
    var box = document.getElementById("seats");
    box.textContent = "";
    var aims = {};
    if (selected >= 0) {
      v.moves.forEach(function (m) {
        if (m.card === selected && m.target >= 0) aims[m.target] = (aims[m.target] || []).concat([m]);
      });
    }
    v.players.forEach(function (p, i) {
      var s = el("div", "seat");
      s.dataset.seat = i;
      if (i === v.seat) s.classList.add("me");
      if (i === v.current) s.classList.add("current");
      if (i === v.to_act && !v.over) s.classList.add("to-act");
      if (p.down) s.classList.add("down");
      var top = el("div", "top");
      top.appendChild(el("span", "name", i === v.seat ? say("you", {who: p.name}) : p.name));
      top.appendChild(el("span", "kind", p.kind === "human" ? "" : say("bot", {kind: p.kind})));
      s.appendChild(top);
      var life = el("div", "life", String(p.life));
      life.appendChild(el("small", "", " " + v.life_word));
      life.dataset.life = p.life;
      s.appendChild(life);
      var backs = el("div", "backs");
      backs.dataset.cards = p.cards;
      for (var k = 0; k < Math.min(p.cards, 10); k++) { var b = el("img"); b.src = "/back.png"; b.alt = ""; backs.appendChild(b); }
      backs.title = say("cards", {n: p.cards});
      s.appendChild(backs);
      var st = [];
      if (p.stomped) st.push(say("stomped")); else if (p.down) st.push(say("knocked_out"));
      if (p.stunned) st.push(say("stunned"));
      if (p.vomiting) st.push(say("vomiting"));
      p.holding.forEach(function (n) { st.push(say("holding", {who: n})); });
      p.held_by.forEach(function (n) { st.push(say("held_by", {who: n})); });
      s.appendChild(el("div", "status", st.join(", ")));
      var mine = aims[i];
      if (mine && mine.length === 1) {
        s.classList.add("aim");
        s.addEventListener("click", function () { send(mine[0]); });
      }
      box.appendChild(s);
    });
  }

  function renderHand(v) {
    var box = document.getElementById("hand");
    box.textContent = "";
    var playable = {};
    v.moves.forEach(function (m) { if (m.card >= 0) playable[m.card] = true; });
    if (selected >= 0 && !playable[selected]) selected = -1;
    v.hand.forEach(function (c) {
      var img = cardImg(c, playable[c.card] ? "card playable" : (v.moves.length ? "card idle" : "card"));
      img.dataset.card = c.card;
      if (c.card === selected) img.classList.add("selected");
      if (playable[c.card]) {
        img.tabIndex = 0;
        var pick = function () { selected = selected === c.card ? -1 : c.card; render(view); };
        img.addEventListener("click", pick);
        img.addEventListener("keydown", function (e) { if (e.key === "Enter" || e.key === " ") pick(); });
      }
      box.appendChild(img);
    });
  }

  function renderActions(v) {
    var box = document.getElementById("actions");
    box.textContent = "";
    if (v.over) return;
    var withCard = v.moves.filter(function (m) { return m.card >= 0; });
    var chosen = withCard.filter(function (m) { return m.card === selected; });
    chosen.concat(v.moves.filter(function (m) { return m.card < 0; })).forEach(function (m) {
      var name = m.card >= 0 ? (v.hand.filter(function (c) { return c.card === m.card; })[0] || {}).name : "";
      var b = el("button", "move" + (m.card < 0 ? " quiet" : ""), (name ? name + ": " : "") + m.label);
      b.dataset.kind = m.kind;
      b.dataset.card = m.card;
      b.dataset.target = m.target;
      b.addEventListener("click", function () { send(m); });
      box.appendChild(b);
    });
    if (withCard.length && selected < 0) box.appendChild(el("span", "hint", say("pick")));
  }

  function renderLog(v) {
    var box = document.getElementById("log");
    var atEnd = box.scrollTop + box.clientHeight >= box.scrollHeight - 8;
    box.textContent = "";
    v.log.forEach(function (l) { box.appendChild(el("li", "", l.text)); });
    v.notes.forEach(function (n) { box.appendChild(el("li", "note", n)); });
    if (atEnd) box.scrollTop = box.scrollHeight;
  }

  function render(v) {
    if (view && v.version < view.version) return;  // an older push arriving late
    view = v;
    document.body.dataset.version = v.version;
    document.body.dataset.state = v.over ? "over" : (v.to_act === v.seat ? "act" : "wait");
    document.title = (v.to_act === v.seat && !v.over ? say("your_turn") : "") + v.title;
    document.getElementById("title").textContent = v.title;
    document.getElementById("turn").textContent = say("turn", {turn: v.turn, cap: v.turn_cap});
    document.getElementById("draw").textContent = say("draw_n", {n: v.draw_size});
    document.getElementById("discard").textContent = say("discard_n", {n: v.discard_size}) + (v.pool ? say("pool_n", {n: v.pool}) : "");
    var top = document.getElementById("discard-top");
    top.textContent = "";
    if (v.discard.length) top.appendChild(cardImg(v.discard[v.discard.length - 1]));
    var pend = document.getElementById("pending");
    pend.textContent = "";
    // the last pending card is said in full below the table (#said)
    v.pending.slice(0, v.over ? 0 : -1).forEach(function (t) { pend.appendChild(el("div", "", t)); });
    v.table.forEach(function (c) { pend.appendChild(el("div", "", say("in_play", {card: c.name}))); });
    document.getElementById("said").textContent = v.said;
    var save = document.getElementById("save");
    save.hidden = !v.can_save;
    save.href = api + "/save";
    renderSeats(v); renderHand(v); renderActions(v); renderLog(v);
  }

  fetch(api + "/state").then(function (r) { return r.json(); }).then(render)
    .catch(function () { showError(say("no_seat")); });
  var events = new EventSource(api + "/events");
  events.onmessage = function (e) { showError(""); render(JSON.parse(e.data)); };
  events.onerror = function () { showError(say("connection_lost")); };
})();
