// The replay viewer: steps through a saved game's frames (/replay.json), from one seat's view or all hands open.
"use strict";
(function () {
  var words = JSON.parse(document.getElementById("words").textContent);
  function say(key, fields) {
    var t = words[key];
    if (t === undefined) return key;
    return t.replace(/\{(\w+)\}/g, function (all, f) { return fields && f in fields ? String(fields[f]) : all; });
  }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  var data = null, at = 0, seat = -1;
  var slider = document.getElementById("slider");

  function cardImg(d) {
    var img = el("img");
    img.src = "/card/" + d + ".png"; img.alt = data.cards[d]; img.title = data.cards[d];
    img.dataset.card = d;
    img.addEventListener("click", function () {
      var z = document.getElementById("zoom");
      document.getElementById("zoom-img").src = "/card/" + d + ".png?size=large";
      document.getElementById("zoom-img").alt = data.cards[d];
      z.hidden = false;
    });
    return img;
  }

  function show(i) {
    at = Math.max(0, Math.min(data.frames.length - 1, i));
    var f = data.frames[at], last = data.frames.length - 1;
    document.body.dataset.step = at;
    slider.value = at;
    document.getElementById("where").textContent = say("step", {step: at, steps: last});
    document.getElementById("turn").textContent = say("turn", {turn: f.turn});
    document.getElementById("first").disabled = document.getElementById("back").disabled = at === 0;
    document.getElementById("forward").disabled = document.getElementById("last").disabled = at === last;
    document.getElementById("decided").textContent = f.decided;
    var seats = document.getElementById("seats");
    seats.textContent = "";
    f.players.forEach(function (p, k) {
      var s = el("div", "seat");
      s.dataset.seat = k;
      if (k === f.to_act) s.classList.add("to-act");
      if (k === seat) s.classList.add("me");
      if (p.down) s.classList.add("down");
      var top = el("div", "top");
      top.appendChild(el("span", "name", p.name));
      s.appendChild(top);
      var life = el("div", "life", String(p.life));
      life.appendChild(el("small", "", " " + data.life_word));
      life.dataset.life = p.life;
      s.appendChild(life);
      var st = [];
      if (p.stomped) st.push(say("stomped")); else if (p.down) st.push(say("knocked_out"));
      if (p.stunned) st.push(say("stunned"));
      if (p.vomiting) st.push(say("vomiting"));
      s.appendChild(el("div", "status", st.join(", ")));
      seats.appendChild(s);
    });
    var top = document.getElementById("discard-top");
    top.textContent = "";
    if (f.discard_top >= 0) top.appendChild(cardImg(f.discard_top));
    document.getElementById("piles").textContent = say("piles", {draw: f.draw_size, discard: f.discard_size, pool: f.pool});
    var pend = document.getElementById("pending");
    pend.textContent = "";
    f.pending.forEach(function (t) { pend.appendChild(el("div", "", t)); });
    if (f.to_act >= 0) pend.appendChild(el("div", "", say("deciding", {who: data.names[f.to_act], n: f.choices})));
    document.getElementById("said").textContent = f.said;
    var hands = document.getElementById("hands");
    hands.textContent = "";
    f.players.forEach(function (p, k) {
      var box = el("div", "hand");
      box.dataset.seat = k;
      box.appendChild(el("h3", "", say("hand_of", {who: p.name, n: p.hand.length})));
      var cards = el("div", "cards");
      if (seat < 0 || seat === k) p.hand.forEach(function (d) { cards.appendChild(cardImg(d)); });
      else {
        cards.classList.add("backs-only");
        p.hand.forEach(function () { var b = el("img"); b.src = "/back.png"; b.alt = ""; cards.appendChild(b); });
      }
      box.appendChild(cards);
      hands.appendChild(box);
    });
    var log = document.getElementById("log");
    log.textContent = "";
    data.log.forEach(function (text, n) {
      if (n >= f.lines) return;
      var li = el("li", n === f.lines - 1 ? "now" : "", n === f.lines - 1 ? f.last : text);
      log.appendChild(li);
    });
    log.scrollTop = log.scrollHeight;
  }

  fetch("/replay.json").then(function (r) { return r.json(); }).then(function (d) {
    data = d;
    document.getElementById("title").textContent = d.title;
    document.title = d.title;
    slider.max = d.frames.length - 1;
    var pick = document.getElementById("seat");
    d.names.forEach(function (n, k) { var o = el("option", "", n); o.value = k; pick.appendChild(o); });
    pick.addEventListener("change", function () { seat = Number(pick.value); show(at); });
    if (d.error) { var e = document.getElementById("error"); e.textContent = d.error; e.hidden = false; }
    show(0);
  });
  document.getElementById("first").addEventListener("click", function () { show(0); });
  document.getElementById("back").addEventListener("click", function () { show(at - 1); });
  document.getElementById("forward").addEventListener("click", function () { show(at + 1); });
  document.getElementById("last").addEventListener("click", function () { show(data.frames.length - 1); });
  slider.addEventListener("input", function () { show(Number(slider.value)); });
  document.addEventListener("keydown", function (e) {
    if (!data || e.target.tagName === "SELECT") return;
    if (e.key === "ArrowRight") show(at + 1);
    else if (e.key === "ArrowLeft") show(at - 1);
    else if (e.key === "Escape") document.getElementById("zoom").hidden = true;
  });
  document.getElementById("zoom").addEventListener("click", function () { document.getElementById("zoom").hidden = true; });
})();
