// The cardgen play table: draws one seat's view and sends that seat's moves. Plain JS, no build step.
// The server pushes a new view after every change (server-sent events); a move's answer is the new view too.
// The page's words come with the page (#words: the catalogue's `play.page` in the table's language).
// Each card in hand carries its own buttons (its legal moves); a card with no play says why (hover, or tap).
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
  // `sending`: the view (game and version) a post in flight was sent from. A second click on that same view is
  // dropped (a double click); once a newer view arrives (the server pushes it before the post's own answer
  // may get here), the page takes the next decision at once.
  var view = null, selected = -1, sending = null;
  // Which table the page was drawn for: one the lobby starts may speak another language and deal other cards,
  // so the page is loaded afresh for it; its pictures are asked for by the table's number (no stale cache).
  var tableNo = null;
  function art(path) { return path + (path.indexOf("?") < 0 ? "?" : "&") + "t=" + tableNo; }
  // A wide window with a mouse zooms on hover (table.css lays the zoom out beside the log for it).
  var hover = window.matchMedia("(hover: hover) and (pointer: fine) and (min-width: 1000px)");

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function large(d) { return art("/card/" + d + ".png?size=large"); }
  function showZoom(c) {
    var z = document.getElementById("zoom"), img = document.getElementById("zoom-img");
    img.src = large(c.card); img.alt = c.name;
    z.dataset.card = c.card; z.hidden = false;
  }
  function hideZoom() { document.getElementById("zoom").hidden = true; }
  var hoverTimer = 0;
  function zoomable(img, c) {
    // A desktop zooms on a hover that rests on the card (not one passing over it); a phone on a tap of the
    // card's magnifier.
    img.addEventListener("mouseenter", function () {
      if (!hover.matches) return;
      clearTimeout(hoverTimer);
      hoverTimer = setTimeout(function () { showZoom(c); }, 300);
    });
    img.addEventListener("mouseleave", function () { if (hover.matches) { clearTimeout(hoverTimer); hideZoom(); } });
    img.dataset.zoom = c.card;
  }
  function cardImg(c, cls) {
    var img = el("img", cls || "");
    img.src = art("/card/" + c.card + ".png");
    img.alt = c.name; img.title = c.name;
    zoomable(img, c);
    return img;
  }
  function showError(text) {
    var e = document.getElementById("error");
    e.textContent = text || ""; e.hidden = !text;
  }
  function showWhy(text) {
    var e = document.getElementById("why");
    e.textContent = text || ""; e.hidden = !text;
  }

  function post(path, body, done) {
    var key = body.game + ":" + body.version;
    if (sending === key) return;
    sending = key;
    function settle() { if (sending === key) sending = null; }
    fetch(api + path, {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)})
      .then(function (r) { return r.json().then(function (j) { return {ok: r.ok, j: j}; }); })
      .then(function (res) {
        var current = sending === key;  // no newer decision was sent meanwhile
        settle();
        var v = res.ok ? res.j : res.j.view;  // an answer older than the view on screen changes nothing
        if (!current || (v && view && v.game === view.game && v.version < view.version)) return;
        if (res.ok) { selected = -1; showError(""); showWhy(""); done(res.j); }
        else { showError(res.j.error || say("refused")); if (v) render(v, true); }
      })
      .catch(function () { if (sending === key) showError(say("no_answer")); settle(); });
  }
  function send(m) {
    if (!view) return;
    post("/move", {kind: m.kind, card: m.card, target: m.target, choice: m.choice, version: view.version,
                   game: view.game}, render);
  }

  function moveButton(m, quiet) {
    var b = el("button", "move" + (quiet ? " quiet" : ""), m.label);
    b.type = "button";
    b.dataset.kind = m.kind;
    b.dataset.card = m.card;
    b.dataset.target = m.target;
    b.addEventListener("click", function (e) { e.stopPropagation(); send(m); });
    return b;
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
      for (var k = 0; k < Math.min(p.cards, 10); k++) { var b = el("img"); b.src = art("/back.png"); b.alt = ""; backs.appendChild(b); }
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
    var deciding = v.moves.length > 0;
    if (!v.hand.some(function (c) { return c.card === selected; })) selected = -1;
    v.hand.forEach(function (c) {
      var fig = el("figure", "card");
      fig.dataset.card = c.card;
      var img = cardImg(c);
      fig.appendChild(img);
      var zoom = el("button", "zoom-btn", "⤢");
      zoom.type = "button"; zoom.title = say("zoom"); zoom.setAttribute("aria-label", say("zoom") + ": " + c.name);
      zoom.addEventListener("click", function (e) { e.stopPropagation(); showZoom(c); });
      fig.appendChild(zoom);
      if (deciding) {
        fig.classList.add(c.why ? "noplay" : "playable");
        if (c.why) { fig.title = say("no_play", {card: c.name, why: c.why}); fig.dataset.why = c.why; }
        var offers = el("div", "offers");
        var plays = c.offers.filter(function (i) { return v.moves[i].kind !== "discard"; });
        var discards = c.offers.filter(function (i) { return v.moves[i].kind === "discard"; });
        plays.concat(discards).forEach(function (i) { offers.appendChild(moveButton(v.moves[i], v.moves[i].kind === "discard")); });
        fig.appendChild(offers);
        if (c.why) fig.appendChild(el("figcaption", "why", c.why));
      }
      if (c.card === selected) fig.classList.add("selected");
      fig.tabIndex = 0;
      var pick = function () {
        selected = selected === c.card ? -1 : c.card;
        showWhy(selected >= 0 && c.why ? say("no_play", {card: c.name, why: c.why}) : "");
        render(view, true);
      };
      img.addEventListener("click", pick);
      fig.addEventListener("keydown", function (e) { if (e.target === fig && (e.key === "Enter" || e.key === " ")) pick(); });
      box.appendChild(fig);
    });
  }

  function renderActions(v) {
    var box = document.getElementById("actions");
    box.textContent = "";
    if (v.over) return;
    // Buttons for the moves no card in the hand carries: no card at all, or a card of another hand (an effect's pick
    // from the hand you are looking at).
    var onCards = {};
    v.hand.forEach(function (c) { c.offers.forEach(function (i) { onCards[i] = true; }); });
    v.moves.forEach(function (m, i) { if (!onCards[i]) box.appendChild(moveButton(m, true)); });
    if (v.hand.some(function (c) { return c.offers.length > 0; })) box.appendChild(el("span", "hint", say("pick")));
  }

  function renderFlight(v) {
    var fig = document.getElementById("flight");
    var f = v.flight;
    fig.hidden = !f;
    if (!f) return;
    var img = document.getElementById("flight-img");
    if (img.dataset.card !== String(f.card)) {
      img.src = art("/card/" + f.card + ".png"); img.alt = f.name; img.dataset.card = f.card;
      img.onclick = function () { showZoom({card: f.card, name: f.name}); };
    }
    fig.dataset.strike = f.strike; fig.dataset.strikes = f.strikes;
    document.getElementById("flight-said").textContent = f.said;
  }

  function renderNext(v) {
    var box = document.getElementById("next");
    box.hidden = !v.over;
    var choices = document.getElementById("next-choices");
    choices.textContent = "";
    if (!v.over) return;
    if (!v.can_restart) { choices.appendChild(el("span", "", say("waiting_host"))); return; }
    [["rematch", "rematch"], ["deal", "new_deal"]].forEach(function (pair) {
      var b = el("button", "next", say(pair[1]));
      b.type = "button"; b.dataset.next = pair[0];
      b.addEventListener("click", function () { post("/next", {what: pair[0], version: view.version, game: view.game},
             function (j) { view = null; render(j); }); });
      choices.appendChild(b);
    });
    var lobby = el("a", "next lobby", say("lobby"));
    lobby.href = "/lobby/" + encodeURIComponent(token);
    choices.appendChild(lobby);
  }

  function renderLog(v) {
    var box = document.getElementById("log");
    var atEnd = box.scrollTop + box.clientHeight >= box.scrollHeight - 8;
    box.textContent = "";
    v.log.forEach(function (l) { box.appendChild(el("li", "", l.text)); });
    v.notes.forEach(function (n) { box.appendChild(el("li", "note", n)); });
    if (atEnd) box.scrollTop = box.scrollHeight;
  }

  function render(v, again) {
    if (tableNo === null) {
      tableNo = v.table_no;
      document.getElementById("draw-img").src = art("/back.png");
    } else if (v.table_no !== tableNo) { location.reload(); return; }
    if (view && !again && (v.game < view.game || (v.game === view.game && v.version < view.version))) return;
    view = v;
    document.body.dataset.version = v.version;
    document.body.dataset.game = v.game;
    document.body.dataset.state = v.over ? "over" : (v.to_act === v.seat ? "act" : "wait");
    document.title = (v.to_act === v.seat && !v.over ? say("your_turn") : "") + v.title;
    document.getElementById("title").textContent = v.title;
    document.getElementById("turn").textContent = say("turn", {turn: v.turn});
    document.getElementById("draw").textContent = say("draw_n", {n: v.draw_size});
    document.getElementById("discard").textContent = say("discard_n", {n: v.discard_size}) + (v.pool ? say("pool_n", {n: v.pool}) : "");
    var top = document.getElementById("discard-top");
    top.textContent = "";
    if (v.discard.length) top.appendChild(cardImg(v.discard[v.discard.length - 1]));
    var pend = document.getElementById("pending");
    pend.textContent = "";
    // the last pending card is said in full beside the card in flight (#said)
    v.pending.slice(0, v.over ? 0 : -1).forEach(function (t) { pend.appendChild(el("div", "", t)); });
    v.table.forEach(function (c) { pend.appendChild(el("div", "", say("in_play", {card: c.name}))); });
    document.getElementById("said").textContent = v.said;
    var save = document.getElementById("save");
    save.hidden = !v.can_save;
    save.href = api + "/save";
    renderSeats(v); renderFlight(v); renderHand(v); renderActions(v); renderNext(v); renderLog(v);
  }

  document.getElementById("zoom").addEventListener("click", hideZoom);
  document.addEventListener("keydown", function (e) { if (e.key === "Escape") hideZoom(); });
  document.getElementById("discard-top").addEventListener("click", function () {
    if (view && view.discard.length) showZoom(view.discard[view.discard.length - 1]);
  });
  fetch(api + "/state").then(function (r) { return r.json(); }).then(function (v) { render(v); })
    .catch(function () { showError(say("no_seat")); });
  var events = new EventSource(api + "/events");
  events.onmessage = function (e) { showError(""); render(JSON.parse(e.data)); };
  events.onerror = function () {
    showError(say("connection_lost"));
    // a table the lobby started may have no seat for this link any more: say so, and stop asking
    fetch(api + "/state").then(function (r) { if (r.status === 404) { events.close(); showError(say("no_seat")); } })
      .catch(function () {});
  };
})();
