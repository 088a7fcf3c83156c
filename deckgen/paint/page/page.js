"use strict";
// The live dial. Every figure is computed here exactly as deckgen's core computes it:
// fractions of BigInts, half-up rounding, the same parsing and the same words (a port of
// quantities.py, fmt.py, dial.py, figures.py and the story's composed sentences).
(function () {
  var M = JSON.parse(document.getElementById("model").textContent);
  var Z = BigInt(0), ONE = BigInt(1), TWO = BigInt(2), TEN = BigInt(10);
  var NBSP = "\u00a0", TIMES = "\u00d7", DIVIDE = "\u00f7";
  // The talk's language: its fixed words (sentences with {slots}) and how it spells numbers.
  var W = M.words, N = M.numbers;
  function say(name, values) {
    return W[name].replace(/\{(\w+)\}/g, function (_, slot) { return values[slot]; });
  }
  function put(pattern, text) { return pattern.replace("{}", function () { return text; }); }
  // A number written the English way ('1,234.5') in the language's marks (locale.spell).
  function spell(english) {
    if (N.decimal === "." && N.group === ",") return english;
    return english.replace(/[,.]/g, function (c) { return c === "," ? "\u0000" : N.decimal; })
      .split("\u0000").join(N.group);
  }
  var RULES = {};
  // The CLDR plural category of a number shown with `places` decimals ('one', 'other', ...).
  function plural(text, places) {
    if (!RULES[places]) {
      var options = { minimumFractionDigits: places, maximumFractionDigits: places };
      try { RULES[places] = new Intl.PluralRules(N.tag, options); }
      catch (e) { RULES[places] = new Intl.PluralRules("en", options); }
    }
    return RULES[places].select(Number(text.replace(/,/g, "")));
  }
  function secondsText(text, places) {
    return put(N.seconds[plural(text, places)] || N.seconds.other, spell(text));
  }

  // ---- exact fractions ----
  function gcd(a, b) { if (a < Z) a = -a; if (b < Z) b = -b; while (b) { var t = a % b; a = b; b = t; } return a; }
  function Q(n, d) {
    n = BigInt(n); d = d === undefined ? ONE : BigInt(d);
    if (d < Z) { n = -n; d = -d; }
    var g = gcd(n, d) || ONE;
    return { n: n / g, d: d / g };
  }
  function q(text) { var p = String(text).split("/"); return Q(p[0], p.length > 1 ? p[1] : 1); }
  function add(a, b) { return Q(a.n * b.d + b.n * a.d, a.d * b.d); }
  function sub(a, b) { return Q(a.n * b.d - b.n * a.d, a.d * b.d); }
  function mul(a, b) { return Q(a.n * b.n, a.d * b.d); }
  function div(a, b) { return Q(a.n * b.d, a.d * b.n); }
  function cmp(a, b) { var x = a.n * b.d, y = b.n * a.d; return x < y ? -1 : x > y ? 1 : 0; }
  function eq(a, b) { return cmp(a, b) === 0; }
  function pow10(k) { return TEN ** BigInt(k); }
  function num(a) { return Number(a.n) / Number(a.d); }
  function key(a) { return a.n + "/" + a.d; }

  // ---- fmt ----
  // A decimal is {w: BigInt, p: places}: the value w / 10^p.
  function rhu(v, places) {
    var neg = v.n < Z, n = neg ? -v.n : v.n;
    var w = (TWO * n * pow10(places) + v.d) / (TWO * v.d);
    return { w: neg ? -w : w, p: places };
  }
  function group(digits) { return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ","); }
  function fixed(dec, grouped) {
    var neg = dec.w < Z, s = (neg ? -dec.w : dec.w).toString();
    while (s.length < dec.p + 1) s = "0" + s;
    var whole = s.slice(0, s.length - dec.p), frac = s.slice(s.length - dec.p);
    return (neg ? "-" : "") + (grouped ? group(whole) : whole) + (dec.p ? "." + frac : "");
  }
  function plain(dec) {
    var text = fixed(dec, true);
    if (text.indexOf(".") >= 0) text = text.replace(/0+$/, "").replace(/\.$/, "");
    return text === "-0" || text === "" ? "0" : text;
  }
  function significant(v, figures) {
    var e = 0;
    while (cmp(v, Q(pow10(e + 1))) >= 0) e++;
    while (cmp(v, e >= 0 ? Q(pow10(e)) : Q(1, pow10(-e))) < 0) e--;
    var places = Math.max(figures - 1 - e, 0);
    return rhu(v, places);
  }
  function decCmp(dec, n) { var x = dec.w, y = BigInt(n) * pow10(dec.p); return x < y ? -1 : x > y ? 1 : 0; }
  function number(v, places) {
    if (places === undefined) places = 2;
    var r = rhu(v, places);
    if (r.w === Z && v.n !== Z) {
      r = significant(v.n < Z ? Q(-v.n, v.d) : v, 3);
      if (v.n < Z) r = { w: -r.w, p: r.p };
    }
    return spell(plain(r));
  }
  function duration(s) {
    if (s.n === Z) return secondsText("0", 0);
    if (cmp(s, Q(1)) < 0) {
      var r = significant(s, 3);
      if (decCmp(r, 1) < 0) return secondsText(plain(r), r.p);
    }
    if (cmp(s, Q(100)) < 0) {
      var r1 = rhu(s, 1);
      if (decCmp(r1, 100) < 0) {
        var shown = plain(r1);
        return secondsText(shown, shown.indexOf(".") < 0 ? 0 : shown.length - shown.indexOf(".") - 1);
      }
    }
    var whole = rhu(s, 0).w, h = whole / BigInt(3600), rest = whole % BigInt(3600);
    var m = rest / BigInt(60), sec = rest % BigInt(60), parts = [];
    if (h) parts.push(put(N.hours, spell(group(h.toString()))));
    if (m) parts.push(put(N.minutes, String(m)));
    if (sec) parts.push(put(N.shortSeconds, String(sec)));
    return parts.join(" ");
  }
  // A fixed check as a label ('None') and inside a sentence ('none'), in the talk's words.
  function check(s) { return s.n === Z ? W.none : duration(s); }
  function checkInline(s) { return s.n === Z ? W.no_check : duration(s); }
  // fmt.speedup: a whole ratio without decimals, any other with two ('3.20×' beside '3.22×').
  function speedup(r) {
    var d = rhu(r, 2);
    if (r.d === ONE || d.w === Z) return number(r, 2) + TIMES;
    return spell(fixed(d, true)) + TIMES;
  }
  function share(p) {
    var pct = mul(p, Q(100)), r = rhu(pct, 1);
    if (decCmp(r, 100) === 0 && cmp(pct, Q(100)) < 0) return ">" + put(N.percent, spell("99.9"));
    if (r.w === Z && pct.n > Z) return "<" + put(N.percent, spell("0.1"));
    return put(N.percent, spell(fixed(r, false)));
  }
  function count(n) { return spell(group(BigInt(n).toString())); }
  function speed(s) { return number(s) + " " + W.tokens_per_sec; }
  var MARKS = [[1, ""], [1e3, "K"], [1e6, "M"], [1e9, "B"], [1e12, "T"]].map(function (m) {
    return [Q(BigInt(m[0])), m[1]];
  });
  function speedMark(v) {
    var step = 0;
    MARKS.forEach(function (m, i) { if (cmp(v, m[0]) >= 0) step = i; });
    while (step + 1 < MARKS.length && decCmp(rhu(div(v, MARKS[step][0]), 2), 1000) >= 0) step++;
    return number(div(v, MARKS[step][0])) + MARKS[step][1];
  }
  // The dial's own speed where a chart marks it (fmt.dial_mark): its short mark when that is
  // the speed exactly, else the number as the text writes it.
  function dialMark(v) {
    var step = 0;
    MARKS.forEach(function (m, i) { if (cmp(v, m[0]) >= 0) step = i; });
    while (step + 1 < MARKS.length && decCmp(rhu(div(v, MARKS[step][0]), 2), 1000) >= 0) step++;
    var r = rhu(div(v, MARKS[step][0]), 2);
    return eq(mul(Q(r.w, pow10(2)), MARKS[step][0]), v) ? speedMark(v) : number(v);
  }
  function k(text) { return text.split(" ").join(NBSP); }
  // A table cell: each number kept with the word after it, as the story keeps it (fmt.keep_units).
  function ku(text) { return text.replace(/(\d) /g, "$1" + NBSP); }
  // figures.division: both numbers at the fewest decimals whose quotient, as shown, is the
  // quotient's own text ("8,060 ÷ 60.8", and "8,060 ÷ 60.242" for 133.79×).
  function division(top, bottom) {
    var want = speedup(div(top, bottom));
    for (var places = 0; places < 40; places++) {
      var a = rhu(top, places), b = rhu(bottom, places);
      if (a.w !== Z && b.w !== Z && speedup(Q(a.w, b.w)) === want) {
        return [number(top, places), number(bottom, places)];
      }
    }
    return [number(top, 40), number(bottom, 40)];
  }
  // Whole decades, exactly (story.py's _decade_below and _speed_span).
  function decadeBelow(v) {
    var power = Q(1), ten = Q(10);
    while (cmp(power, v) > 0) power = div(power, ten);
    while (cmp(mul(power, ten), v) <= 0) power = mul(power, ten);
    return power;
  }
  function lowest(xs) { return xs.reduce(function (a, b) { return cmp(a, b) <= 0 ? a : b; }); }
  function highest(xs) { return xs.reduce(function (a, b) { return cmp(a, b) >= 0 ? a : b; }); }

  // ---- quantities ----
  var NUMBER = /^[+-]?(\d[\d,_]*(\.\d*)?|\.\d+)([eE][+-]?\d{1,4})?$/;
  var GROUPED = /^[+-]?\d{1,3}(,\d{3})+(\.\d*)?([eE][+-]?\d+)?$/;
  // One mark and three digits after it reads two ways ('5.000': 5 in English, 5000 in
  // German), so it is refused, as on the command line.
  var TWO_WAYS = /^[+-]?[1-9]\d{0,2}[.,]\d{3}$/;
  var SUFFIX = { "": 1, k: 1e3, m: 1e6, g: 1e9, b: 1e9, t: 1e12 };
  var UNITS = {
    "": 1, s: 1, sec: 1, secs: 1, second: 1, seconds: 1,
    m: 60, min: 60, mins: 60, minute: 60, minutes: 60,
    h: 3600, hr: 3600, hrs: 3600, hour: 3600, hours: 3600,
    d: 86400, day: 86400, days: 86400
  };
  Object.keys(N.units).forEach(function (word) { UNITS[word] = N.units[word]; });
  var NOTHING = ["none", "no", "0"].concat(N.nothing);
  var DURATION = /^([+-]?[\d.,_eE+-]+?)\s*((?:[^\d\s.,_+-]+\.?)?)$/u;
  // A number written with the language's marks ('1.000.000', '1,5' in German) in English's;
  // any other text as it is, read the English way (quantities._in_english).
  var SPACES = "\u00a0\u202f\u2009 ";
  function esc(text) { return text.replace(/[.*+?^${}()|[\]\\\/-]/g, "\\$&"); }
  function inEnglish(text) {
    if (N.decimal === "." && N.group === ",") return text;
    var g = "[" + esc(SPACES.indexOf(N.group) >= 0 ? SPACES : N.group) + "]";
    var m = new RegExp("^([+-]?)(\\d{1,3}(?:" + g + "\\d{3})+|\\d+)(?:" + esc(N.decimal) +
      "(\\d+))?([a-z]*)$").exec(text);
    if (!m) return text;
    return m[1] + m[2].replace(new RegExp(g, "g"), "") + (m[3] ? "." + m[3] : "") + m[4];
  }
  // Longer texts are refused before any pattern or sum runs (quantities.py's MAX_TEXT): a
  // link's 10,000-digit speed would otherwise freeze the page on its BigInts.
  var MAX_TEXT = 200;
  // A number that reads two ways is refused unless `withUnit`: a duration's number with its
  // unit reads as deckgen prints it ('1,000 h'), as quantities.parse_duration reads it.
  function exact(text, withUnit) {
    text = text.trim();
    if (text.length > MAX_TEXT || (!withUnit && TWO_WAYS.test(text))) return null;
    text = inEnglish(text);
    if (!NUMBER.test(text)) return null;
    if (text.indexOf(",") >= 0 && !GROUPED.test(text)) return null;
    var m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text.replace(/[,_]/g, ""));
    if (!m || (m[2] + (m[3] || "")) === "") return null;
    var digits = m[2] + (m[3] || ""), scale = (m[3] || "").length - (m[4] ? parseInt(m[4], 10) : 0);
    var n = BigInt(digits) * (m[1] === "-" ? -ONE : ONE);
    return scale >= 0 ? Q(n, pow10(scale)) : Q(n * pow10(-scale));
  }
  var MIN_SPEED = Q(1, 1000), MAX_SPEED = Q(pow10(12));
  var MIN_DURATION = Q(1, 1000), MAX_DURATION = Q(366 * 24 * 3600);
  // Any script's decimal digits read as their values, as Python's \d and Decimal read them.
  function digits(text) {
    return text.replace(/\p{Nd}/gu, function (ch) {
      var cp = ch.codePointAt(0), start = cp;
      while (/\p{Nd}/u.test(String.fromCodePoint(start - 1))) start--;
      return String((cp - start) % 10);
    });
  }
  function parseSpeed(value) {
    if (value.length > MAX_TEXT) return null;
    var text = digits(value.trim().toLowerCase());
    text = text.replace(/\s*(tokens?\s*(\/|per)\s*(sec(ond)?|s))$/, "");
    var last = text.slice(-1), suffix = last !== "" && "kmgbt".indexOf(last) >= 0 ? last : "";
    var v = exact(text.slice(0, text.length - suffix.length));
    if (!v) return null;
    v = mul(v, Q(BigInt(SUFFIX[suffix])));
    if (cmp(v, MIN_SPEED) < 0 || cmp(v, MAX_SPEED) > 0) return null;
    return v;
  }
  function parseDuration(value) {
    if (value.length > MAX_TEXT) return null;
    var text = value.trim().toLowerCase();
    if (NOTHING.indexOf(text.split(/\s+/).join(" ")) >= 0) return Q(0);
    text = digits(text);
    var m = DURATION.exec(text);
    if (!m || !Object.prototype.hasOwnProperty.call(UNITS, m[2])) return null;
    var v = exact(m[1], m[2] !== "");
    if (!v) return null;
    v = mul(v, Q(UNITS[m[2]]));
    if (v.n < Z || cmp(v, MAX_DURATION) > 0 || (v.n > Z && cmp(v, MIN_DURATION) < 0)) return null;
    return v;
  }

  // ---- the content ----
  var SLOW = q(M.slow), HOME = { speed: q(M.speed), check: q(M.check), workload: M.workload };
  var PRESETS = M.presets.map(q), SPEED_MARKS = M.marks.map(q);
  var WORK = {};
  M.workloads.forEach(function (w) { WORK[w.id] = w; w.output = Q(BigInt(w.count) * BigInt(w.each)); });
  var BOTTLE = WORK[M.bottleneck];

  function fill(segs, table) {
    return segs.map(function (s) { return s[1] === null ? s[0] : table[s[1]]; }).join("");
  }
  function wt(tokens, s) { return div(tokens, s); }

  // figures.py's table, name for name.
  function figures(st) {
    var t = {}, featured = WORK[st.workload], ws = div(st.speed, SLOW);
    t["dial.speed"] = speed(st.speed);
    t["dial.speed_mark"] = speedMark(st.speed);
    t["dial.slow_speed"] = speed(SLOW);
    t["dial.writing_speedup"] = speedup(ws);
    t["dial.fixed_check"] = duration(st.check);
    t["dial.both_speeds"] = put(put(N.pair, number(SLOW)), speed(st.speed));
    t["dial.noun"] = featured.noun;
    t["dial.title"] = "";
    function workload(prefix, w) {
      t[prefix + ".count"] = count(w.count);
      t[prefix + ".tokens_each"] = count(w.each);
      t[prefix + ".output_tokens"] = count(w.output.n);
      t[prefix + ".writing_time"] = duration(wt(w.output, st.speed));
      t[prefix + ".slow_writing_time"] = duration(wt(w.output, SLOW));
    }
    workload("dial", featured);
    M.workloads.forEach(function (w) { workload("workload." + w.id, w); });
    if (M.aggregate) {
      var streams = M.aggregate[0], each = q(M.aggregate[1]);
      t["aggregate.streams"] = count(streams);
      t["aggregate.stream_speed"] = speed(each);
      t["aggregate.total"] = speed(mul(Q(BigInt(streams)), each));
    }
    var b = batch(BOTTLE, st.speed, st.check);
    t["bottleneck.count"] = count(BOTTLE.count);
    t["bottleneck.noun"] = BOTTLE.noun;
    t["bottleneck.output_tokens"] = count(BOTTLE.output.n);
    t["bottleneck.fixed_check"] = duration(st.check);
    t["bottleneck.writing_time"] = duration(b.writing);
    t["bottleneck.slow_writing_time"] = duration(b.slowWriting);
    t["bottleneck.total"] = duration(b.total);
    t["bottleneck.slow_total"] = duration(b.slowTotal);
    var seconds = division(b.slowTotal, b.total);  // as the end-to-end sum shows them
    t["bottleneck.slow_total_seconds"] = seconds[0];
    t["bottleneck.total_seconds"] = seconds[1];
    t["bottleneck.writing_speedup"] = speedup(b.writingSpeedup);
    t["bottleneck.end_to_end_speedup"] = speedup(b.e2e);
    t["bottleneck.writing_share"] = share(b.writingShare);
    t["bottleneck.check_share"] = share(b.checkShare);
    t["bottleneck.slow_writing_share"] = share(b.slowWritingShare);
    t["bottleneck.slow_check_share"] = share(b.slowCheckShare);
    t["bottleneck.ceiling"] = b.ceiling ? speedup(b.ceiling) : W.no_ceiling;
    t["dial.title"] = fill(featured.title, t);
    return t;
  }

  // dial.py's Batch.
  function batch(w, s, c) {
    var writing = wt(w.output, s), slowWriting = wt(w.output, SLOW);
    var total = add(writing, c), slowTotal = add(slowWriting, c);
    return {
      writing: writing, slowWriting: slowWriting, total: total, slowTotal: slowTotal,
      writingSpeedup: div(s, SLOW), e2e: div(slowTotal, total),
      writingShare: div(writing, total), checkShare: div(c, total),
      slowWritingShare: div(slowWriting, slowTotal), slowCheckShare: div(c, slowTotal),
      ceiling: c.n === Z ? null : div(slowTotal, c)
    };
  }

  // The story's composed texts (story.py), key for key with the page's data-story marks.
  function story(st, t) {
    var s = {}, w = WORK[st.workload], fast = speed(st.speed), slow = speed(SLOW);
    s["dial.speed"] = fast;
    s["dial.speed_mark"] = speedMark(st.speed);
    s["dial.title"] = t["dial.title"];
    s["dial.arithmetic"] = say("dial_arithmetic", { count: count(w.count), noun: w.noun,
      each: count(w.each), output: count(w.output.n) });
    s["dial.figure"] = k(t["dial.writing_time"]);
    s["dial.sentence"] = say("dial_sentence", { count: count(w.count), noun: w.noun,
      time: k(t["dial.writing_time"]), speed: k(fast) });
    s["dial.slow_speed"] = k(slow);
    s["dial.slow_figure"] = k(t["dial.slow_writing_time"]);
    s["dial.at_speed"] = say("at_speed", { speed: k(fast) });
    s["dial.at_slow_speed"] = say("at_speed", { speed: k(slow) });
    s["dial.writing_at"] = say("writing_at", { speed: k(fast) });
    s["our_dial"] = say("our_dial_at", { speed: k(fast) });
    // The workload table.
    s["wt.h.2"] = k(slow); s["wt.h.3"] = k(fast);  // a header never splits "40,000 tokens/sec"
    M.workloads.forEach(function (x, i) {
      s["wt.r." + i + ".2"] = ku(t["workload." + x.id + ".slow_writing_time"]);
      s["wt.r." + i + ".3"] = ku(t["workload." + x.id + ".writing_time"]);
      var time = k(t["workload." + x.id + ".writing_time"]);
      s["exp." + i + ".writing"] = say("experiment_writing", { time: time, speed: k(fast) });
      s["exp." + i + ".figure"] = time;
      s["exp." + i + ".writing_at"] = say("writing_at", { speed: k(fast) });
      s["exp." + i + ".featured_label"] = x.id === st.workload ? W.featured : "";
    });
    // The bottleneck.
    var b = batch(BOTTLE, st.speed, st.check);
    s["b.check"] = k(check(st.check));
    s["b.writing_speedup"] = t["bottleneck.writing_speedup"];
    var speeds = division(st.speed, SLOW);
    s["b.writing_speedup_how"] = speeds[0] + " " + DIVIDE + " " +
      k(speeds[1] + " " + W.tokens_per_sec);
    s["b.end_to_end_speedup"] = t["bottleneck.end_to_end_speedup"];
    s["b.end_to_end_how"] = t["bottleneck.slow_total_seconds"] + " " + DIVIDE + " " +
      k(say("seconds", { seconds: t["bottleneck.total_seconds"] }));
    s["b.slow_total"] = k(t["bottleneck.slow_total"]);
    s["b.total"] = k(t["bottleneck.total"]);
    s["b.check_share"] = t["bottleneck.check_share"];
    s["b.ceiling"] = t["bottleneck.ceiling"];
    var ratio = cmp(b.e2e, Q(1));
    var both = { slow_total: t["bottleneck.slow_total"], slow: slow, total: t["bottleneck.total"],
      speed: fast, faster: ratio > 0 ? W.faster : ratio === 0 ? W.no_faster
        : say("slower", { slow: slow }) };
    if (st.check.n !== Z) {
      both.check = t["bottleneck.fixed_check"];
      both.speedup = t["bottleneck.end_to_end_speedup"];
      both.share = t["bottleneck.check_share"];
      both.of_total = ratio > 0 ? W.of_faster_total : say("of_total_at", { speed: fast });
      s["b.summary"] = say("summary_check", both);
    } else {
      both.speedup = t["bottleneck.writing_speedup"];
      s["b.summary"] = say("summary_no_check", both);
    }
    s["b.check_share_how"] = say("share_how", { total: k(t["bottleneck.total"]) });
    // The bars.
    s["bar.0.label"] = slow + ": " + duration(b.slowTotal);
    s["bar.0.seg.0"] = share(b.slowWritingShare);
    s["bar.0.seg.1"] = share(b.slowCheckShare);
    s["bar.1.label"] = fast + ": " + duration(b.total);
    s["bar.1.seg.0"] = share(b.writingShare);
    s["bar.1.seg.1"] = share(b.checkShare);
    // The check table.
    s["pt.h.1"] = k(slow); s["pt.h.2"] = k(fast);
    checksShown(st).forEach(function (c, i) {
      var p = batch(BOTTLE, st.speed, c);
      s["pt.r." + i + ".0"] = check(c);
      s["pt.r." + i + ".1"] = ku(duration(p.slowTotal));
      s["pt.r." + i + ".2"] = ku(duration(p.total));
      s["pt.r." + i + ".3"] = ku(speedup(p.e2e));
    });
    // The charts' descriptions.
    var range = chartRange(st);
    var lo = speed(range[0]), hi = speed(range[1]);
    var lines = M.workloads.map(function (x) { return count(x.count) + " " + x.noun; });
    function at(sp) {
      return M.workloads.map(function (x, i) { return lines[i] + ": " + duration(wt(x.output, sp)); })
        .join("; ");
    }
    s["chart.writing_time.alt"] = say("writing_alt", { low: lo, high: hi, slow: slow,
      at_slow: at(SLOW), speed: fast, at_speed: at(st.speed), featured: count(w.count) + " " + w.noun });
    s["chart.bottleneck.alt"] = say("bars_alt", { whole: put(N.percent, number(Q(100))),
      check: st.check.n !== Z ? say("check_of", { check: duration(st.check) }) : W.no_fixed_check,
      slow: slow, slow_total: duration(b.slowTotal), slow_writing: share(b.slowWritingShare),
      slow_checking: share(b.slowCheckShare), speed: fast, total: duration(b.total),
      writing: share(b.writingShare), checking: share(b.checkShare),
      writing_speedup: speedup(b.writingSpeedup), end_to_end: speedup(b.e2e) });
    var mark = dialMark(st.speed);
    s["chart.ceiling.alt"] = say("ceiling_alt", { low: lo, high: hi,
      lines: checksShown(st).map(function (c) {
        var p = batch(BOTTLE, st.speed, c), line = say("check_line", { check: checkInline(c) });
        return p.ceiling
          ? say("line_with_ceiling", { line: line, speedup: speedup(p.e2e), mark: mark,
            ceiling: speedup(p.ceiling) })
          : say("line_without_ceiling", { line: line, speedup: speedup(p.e2e), mark: mark });
      }).join("; "), check: checkInline(st.check), mark: mark, speedup: speedup(b.e2e),
      under: b.ceiling ? say("under_ceiling", { ceiling: speedup(b.ceiling) }) : "" });
    s["chart.marker"] = say("our_dial_at", { speed: mark });
    s["chart.writing_time.title"] = say("writing_chart_title", { low: speedMark(range[0]),
      high: speedMark(range[1]) });
    return s;
  }

  // The speeds a chart across the dial covers, in whole decades: every mark, the slow end
  // and the dial.
  function chartRange(st) {
    var low = decadeBelow(lowest([SPEED_MARKS[0], SLOW, st.speed]));
    var top = highest([SPEED_MARKS[SPEED_MARKS.length - 1], SLOW, st.speed]);
    var high = decadeBelow(top);
    return [low, eq(high, top) ? high : mul(high, Q(10))];
  }
  // The check table's checks: the presets, and the chosen check in its place when it is not
  // one of them (report.preset_rows with the chosen one).
  function checksShown(st) {
    var checks = PRESETS.slice();
    if (!checks.some(function (c) { return eq(c, st.check); })) {
      var at = checks.findIndex(function (c) { return cmp(c, st.check) > 0; });
      checks.splice(at < 0 ? checks.length : at, 0, st.check);
    }
    return checks;
  }

  // ---- state: the fragment, the sliders ----
  function fromHash() {
    var st = { speed: HOME.speed, check: HOME.check, workload: HOME.workload };
    var params;
    try { params = new URLSearchParams(location.hash.replace(/^#/, "")); } catch (e) { return st; }
    var s = params.get("speed"), c = params.get("check"), w = params.get("workload");
    if (s !== null) { var v = parseSpeed(s); if (v) st.speed = v; }  // any positive speed
    if (c !== null) { var d = parseDuration(c); if (d) st.check = d; }
    if (w !== null && Object.prototype.hasOwnProperty.call(WORK, w)) st.workload = w;
    return st;
  }
  function decimal(v) {
    var places = 0;
    while ((v.n * pow10(places)) % v.d !== Z && places < 40) places++;
    return fixed({ w: (v.n * pow10(places)) / v.d, p: places }, false);
  }
  function speedName(v) {
    var mark = speedMark(v), back = parseSpeed(mark);
    return back && eq(back, v) ? mark : decimal(v);
  }
  function checkName(v) {
    if (v.n === Z) return "none";
    var units = [[86400, "day"], [3600, "h"], [60, "min"]];
    for (var i = 0; i < units.length; i++) {
      var x = div(v, Q(units[i][0]));
      if (x.d === ONE) return x.n + units[i][1];
    }
    return decimal(v) + "s";
  }
  function toHash(st) {
    return "#speed=" + speedName(st.speed) + "&check=" + checkName(st.check) +
      "&workload=" + encodeURIComponent(st.workload);
  }

  var STEPS = 1000;
  var LO = num(SPEED_MARKS[0] && cmp(SPEED_MARKS[0], SLOW) < 0 ? SPEED_MARKS[0] : SLOW);
  var HI = Math.max(num(SPEED_MARKS[SPEED_MARKS.length - 1]), num(HOME.speed));
  if (!(HI > LO)) HI = LO * 10;
  function posOf(v) {
    var p = Math.round(STEPS * Math.log(num(v) / LO) / Math.log(HI / LO));
    return Math.min(STEPS, Math.max(0, p));
  }
  function speedAt(p) {
    var f = LO * Math.pow(HI / LO, p / STEPS);
    for (var i = 0; i < SPEED_MARKS.length; i++) {
      if (Math.abs(posOf(SPEED_MARKS[i]) - p) <= 8) return SPEED_MARKS[i];
    }
    if (p >= STEPS) return cmp(HOME.speed, SPEED_MARKS[SPEED_MARKS.length - 1]) > 0 ? HOME.speed
      : SPEED_MARKS[SPEED_MARKS.length - 1];
    var e = Math.floor(Math.log10(f)), m = Math.round(f / Math.pow(10, e - 1));
    if (m >= 100) { m = 10; e += 1; }
    var v = e - 1 >= 0 ? Q(BigInt(m) * pow10(e - 1)) : Q(BigInt(m), pow10(1 - e));
    return cmp(v, SLOW) < 0 ? SLOW : v;
  }
  var CHECKS = [];
  [0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60].forEach(function (x) { CHECKS.push(x); });
  [2, 3, 4, 5, 10, 15, 20, 25, 30, 40, 50, 60].forEach(function (x) { CHECKS.push(x * 60); });
  [2, 3, 4, 5, 6, 8, 10, 12, 15, 18, 21, 24].forEach(function (x) { CHECKS.push(x * 3600); });
  function checkPos(v) {
    var f = Math.log1p(num(v)), best = 0;
    CHECKS.forEach(function (c, i) {
      if (Math.abs(Math.log1p(c) - f) < Math.abs(Math.log1p(CHECKS[best]) - f)) best = i;
    });
    return best;
  }

  // ---- drawing ----
  var SVG = "http://www.w3.org/2000/svg";
  function el(name, attrs, parent, text) {
    var e = document.createElementNS(SVG, name);
    Object.keys(attrs).forEach(function (a) { e.setAttribute(a, attrs[a]); });
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
  var DASHES = M.dashes;  // by a line's place among its chart's lines (plan.charts.style)
  function logAxis(a, b, from, to) {
    var la = Math.log(a), lb = Math.log(b);
    return function (v) { return from + (Math.log(v) - la) / (lb - la) * (to - from); };
  }
  // A chart's width, read before anything on the page is written: reading it after would
  // make the browser lay the page out again for each chart (0: not shown, read when drawn).
  function widthOf(id) {
    var svg = document.getElementById(id);
    return svg ? svg.getBoundingClientRect().width : 0;
  }
  function frame(svg, measured) {
    var width = Math.max(280, Math.round(measured || svg.getBoundingClientRect().width || 640));
    var height = Math.round(Math.min(360, Math.max(230, width * 0.56)));
    svg.setAttribute("viewBox", "0 0 " + width + " " + height);
    clear(svg);
    return { w: width, h: height, left: width < 420 ? 74 : 92, right: 16, top: 28, bottom: 40 };
  }
  function axes(svg, f, x, y, xticks, yticks) {
    var g = el("g", { "class": "axis" }, svg);
    var last = null;
    yticks.forEach(function (t) {
      var yy = y(t[0]);
      el("line", { x1: f.left, x2: f.w - f.right, y1: yy, y2: yy, "class": "grid" }, g);
      if (last !== null && Math.abs(last - yy) < 16) return;  // no label over its neighbour
      el("text", { x: f.left - 6, y: yy + 4, "text-anchor": "end" }, g, t[1]);
      last = yy;
    });
    xticks.forEach(function (t, i) {
      var xx = x(t[0]);
      el("line", { x1: xx, x2: xx, y1: f.h - f.bottom, y2: f.h - f.bottom + 5, "class": "tick" }, g);
      var anchor = i === 0 ? "start" : i === xticks.length - 1 ? "end" : "middle";
      el("text", { x: xx, y: f.h - f.bottom + 20, "text-anchor": anchor }, g, t[1]);
    });
    el("line", { x1: f.left, x2: f.w - f.right, y1: f.h - f.bottom, y2: f.h - f.bottom, "class": "base" }, g);
  }
  function marker(svg, f, xx, label) {
    el("line", { x1: xx, x2: xx, y1: f.top - 6, y2: f.h - f.bottom, "class": "marker" }, svg);
    var right = xx > f.w * 0.6;
    el("text", { x: right ? xx - 6 : xx + 6, y: f.top + 4, "text-anchor": right ? "end" : "start",
      "class": "marker-label" }, svg, label);
  }
  var DURATION_TICKS = [Q(1, 1000), Q(1, 100), Q(1, 10), Q(1), Q(10), Q(60), Q(600), Q(3600),
    Q(36000), Q(86400), Q(864000), Q(8640000)];
  function drawWriting(st, s, measured) {
    var svg = document.getElementById("chart-writing");
    if (!svg) return;
    var f = frame(svg, measured), range = chartRange(st), lo = num(range[0]), hi = num(range[1]);
    var w0 = WORK[st.workload], times = [];
    M.workloads.forEach(function (w) { times.push(wt(w.output, range[0]), wt(w.output, range[1])); });
    var tmin = times.reduce(function (a, b) { return cmp(a, b) <= 0 ? a : b; });
    var tmax = times.reduce(function (a, b) { return cmp(a, b) >= 0 ? a : b; });
    var ticks = DURATION_TICKS.filter(function (c) {
      return cmp(div(tmin, Q(2)), c) <= 0 && cmp(c, mul(tmax, Q(2))) <= 0;
    }).map(function (c) { return [num(c), duration(c)]; });
    var ys = ticks.map(function (t) { return t[0]; }).concat([num(tmin), num(tmax)]);
    var x = logAxis(lo, hi, f.left, f.w - f.right);
    var y = logAxis(Math.min.apply(null, ys), Math.max.apply(null, ys), f.h - f.bottom, f.top);
    axes(svg, f, x, y, SPEED_MARKS.map(function (m, i) { return [num(m), M.markLabels[i]]; }), ticks);
    M.workloads.forEach(function (w, i) {
      var ours = w.id === st.workload;
      el("line", { x1: x(lo), y1: y(lo ? num(w.output) / lo : 1), x2: x(hi), y2: y(num(w.output) / hi),
        "class": ours ? "line ours" : "line", "stroke-dasharray": ours ? "" : DASHES[i % DASHES.length] }, svg);
    });
    marker(svg, f, x(num(st.speed)), s["chart.marker"]);
    // The dial's own point, ringed on the featured line.
    el("circle", { cx: x(num(st.speed)), cy: y(num(w0.output) / num(st.speed)), r: 6,
      "class": "dial-point" }, svg);
    var legend = document.getElementById("legend-writing");
    clear(legend);
    M.workloads.forEach(function (w, i) {
      var li = document.createElement("li");
      if (w.id === st.workload) li.className = "ours";
      var key = el("svg", { width: 28, height: 10, "aria-hidden": "true" }, li);
      el("line", { x1: 0, x2: 28, y1: 5, y2: 5, "class": w.id === st.workload ? "line ours" : "line",
        "stroke-dasharray": w.id === st.workload ? "" : DASHES[i % DASHES.length] }, key);
      li.appendChild(document.createTextNode(count(w.count) + " " + w.noun));
      legend.appendChild(li);
    });
    svg.setAttribute("aria-label", s["chart.writing_time.alt"]);
  }
  function drawCeiling(st, s, measured) {
    var svg = document.getElementById("chart-ceiling");
    if (!svg) return;
    var f = frame(svg, measured), range = chartRange(st), lo = num(range[0]), hi = num(range[1]);
    var T = num(BOTTLE.output), slow = num(SLOW), top = 1, bottom = 1;
    var shown = checksShown(st);
    var curves = shown.map(function (c) {
      var cc = num(c), pts = [];
      for (var i = 0; i <= 60; i++) {
        var sp = lo * Math.pow(hi / lo, i / 60), e2e = (T / slow + cc) / (T / sp + cc);
        pts.push([sp, e2e]); top = Math.max(top, e2e); bottom = Math.min(bottom, e2e);
      }
      return pts;
    });
    var yt = [], v = Q(1);  // from the decade at or below the slowest point (a slowdown < 1×)
    while (num(v) > bottom) v = div(v, Q(10));
    while (num(v) <= top * 2) { yt.push([num(v), speedup(v)]); v = mul(v, Q(10)); }
    var x = logAxis(lo, hi, f.left, f.w - f.right);
    var y = logAxis(yt[0][0], Math.max(top, yt[yt.length - 1][0]), f.h - f.bottom, f.top);
    axes(svg, f, x, y, SPEED_MARKS.map(function (m, i) { return [num(m), M.markLabels[i]]; }), yt);
    var legend = document.getElementById("legend-ceiling");
    clear(legend);
    shown.forEach(function (c, i) {
      var ours = eq(c, st.check), b = batch(BOTTLE, st.speed, c);
      if (b.ceiling) {
        var cy = y(num(b.ceiling));
        el("line", { x1: f.left, x2: f.w - f.right, y1: cy, y2: cy, "class": "cap" }, svg);
      }
      el("polyline", { points: curves[i].map(function (p) { return x(p[0]).toFixed(1) + "," + y(p[1]).toFixed(1); }).join(" "),
        "class": ours ? "line ours" : "line", "stroke-dasharray": ours ? "" : DASHES[i % DASHES.length] }, svg);
      var li = document.createElement("li");
      if (ours) li.className = "ours";
      var key = el("svg", { width: 28, height: 10, "aria-hidden": "true" }, li);
      el("line", { x1: 0, x2: 28, y1: 5, y2: 5, "class": ours ? "line ours" : "line",
        "stroke-dasharray": ours ? "" : DASHES[i % DASHES.length] }, key);
      var line = say("check_line", { check: checkInline(c) });
      li.appendChild(document.createTextNode(b.ceiling
        ? say("legend_ceiling", { line: line, ceiling: speedup(b.ceiling) })
        : say("legend_no_ceiling", { line: line })));
      legend.appendChild(li);
    });
    marker(svg, f, x(num(st.speed)), s["chart.marker"]);
    // The dial's own point on the chosen check's curve.
    var here = batch(BOTTLE, st.speed, st.check);
    el("circle", { cx: x(num(st.speed)), cy: y(num(here.e2e)), r: 6, "class": "dial-point" }, svg);
    svg.setAttribute("aria-label", s["chart.ceiling.alt"]);
  }
  function drawBars(st) {
    var b = batch(BOTTLE, st.speed, st.check);
    [[b.slowWritingShare, "bar-0"], [b.writingShare, "bar-1"]].forEach(function (x) {
      var svg = document.getElementById(x[1]);
      if (!svg) return;
      var pct = (num(x[0]) * 100).toFixed(3) + "%";
      svg.querySelector(".writing").setAttribute("width", pct);
      var rest = svg.querySelector(".checking");
      rest.setAttribute("x", pct);
      rest.setAttribute("width", (100 - num(x[0]) * 100).toFixed(3) + "%");
    });
  }

  // ---- putting it on the page ----
  var speedInput = document.getElementById("speed");
  var checkInput = document.getElementById("check");
  var state = fromHash();

  function renderProse(node, segs, t) {
    clear(node);
    segs.forEach(function (sg) {
      if (sg[1] === null) { node.appendChild(document.createTextNode(sg[0])); return; }
      var span = document.createElement("span");
      span.setAttribute("data-fig", sg[1]);
      span.textContent = k(t[sg[1]]);
      node.appendChild(span);
    });
  }

  // One row of the check table per check shown: the chosen check gets a row of its own when
  // it is not a preset, made like the first row.
  function checkRows(st) {
    var body = document.querySelector("tr[data-table='pt']");
    if (!body) return;
    body = body.parentNode;
    var rows = body.querySelectorAll("tr[data-table='pt']"), want = checksShown(st).length;
    for (var i = rows.length; i < want; i++) {
      var row = rows[0].cloneNode(true);
      row.setAttribute("data-row", String(i));
      var cells = row.querySelectorAll("[data-story]");
      for (var c = 0; c < cells.length; c++) cells[c].setAttribute("data-story", "pt.r." + i + "." + c);
      body.appendChild(row);
    }
    for (var j = rows.length - 1; j >= want; j--) body.removeChild(rows[j]);
  }

  function update() {
    var st = state, t = figures(st), s = story(st, t);
    var writingWidth = widthOf("chart-writing"), ceilingWidth = widthOf("chart-ceiling");
    checkRows(st);
    var figs = document.querySelectorAll("[data-fig]");
    for (var i = 0; i < figs.length; i++) {
      var name = figs[i].getAttribute("data-fig");
      if (Object.prototype.hasOwnProperty.call(t, name)) figs[i].textContent = k(t[name]);
    }
    var ceiling = document.querySelector("[data-story='b.ceiling_sentence']");
    if (ceiling) renderProse(ceiling, st.check.n !== Z ? M.prose.ceiling : M.prose.no_ceiling, t);
    var texts = document.querySelectorAll("[data-story]");
    for (var j = 0; j < texts.length; j++) {
      var sk = texts[j].getAttribute("data-story");
      if (!Object.prototype.hasOwnProperty.call(s, sk)) continue;
      texts[j].textContent = s[sk];
      if (texts[j].classList.contains("big")) texts[j].classList.toggle("long", s[sk].length > 9);
    }
    var rows = document.querySelectorAll("[data-row]");
    for (var r = 0; r < rows.length; r++) {
      var row = rows[r], table = row.getAttribute("data-table"), index = +row.getAttribute("data-row");
      var on = table === "wt" ? M.workloads[index].id === st.workload
        : eq(checksShown(st)[index], st.check);
      row.classList.toggle("ours", on);
      if (on) row.setAttribute("aria-current", "true"); else row.removeAttribute("aria-current");
    }
    var arts = document.querySelectorAll("[data-experiment]");
    for (var a = 0; a < arts.length; a++) {
      arts[a].classList.toggle("ours", arts[a].getAttribute("data-experiment") === st.workload);
    }
    var radios = document.querySelectorAll("input[name='workload']");
    for (var x = 0; x < radios.length; x++) radios[x].checked = radios[x].value === st.workload;
    var hasCap = st.check.n !== Z;
    document.querySelectorAll("[data-when='ceiling']").forEach(function (n) { n.hidden = !hasCap; });
    // With no check, the writing speedup alone: no bars, no end-to-end figure, no 0.0% share.
    document.querySelectorAll("[data-when='check']").forEach(function (n) { n.hidden = !hasCap; });
    var alone = document.querySelector("[data-figure='writing_speedup']");
    if (alone) alone.classList.toggle("ours", !hasCap);
    if (speedInput) {
      if (speedAt(+speedInput.value) === null || !eq(speedAt(+speedInput.value), st.speed)) speedInput.value = posOf(st.speed);
      speedInput.setAttribute("aria-valuetext", s["dial.sentence"].split(NBSP).join(" "));
    }
    if (checkInput) {
      if (CHECKS[+checkInput.value] !== num(st.check)) checkInput.value = checkPos(st.check);
      checkInput.setAttribute("aria-valuetext", say("check_valuetext", { check: check(st.check),
        speedup: t["bottleneck.end_to_end_speedup"], share: t["bottleneck.check_share"] }));
    }
    drawBars(st);
    var bars = document.getElementById("bars");
    if (bars) bars.setAttribute("aria-label", s["chart.bottleneck.alt"]);
    drawWriting(st, s, writingWidth);
    drawCeiling(st, s, ceilingWidth);
    document.documentElement.setAttribute("data-state", toHash(st));
  }

  var pending = false;
  function changed() {
    if (pending) return;
    pending = true;
    requestAnimationFrame(function () {
      pending = false;
      update();
      history.replaceState(null, "", toHash(state));  // the link names what the page shows
    });
  }
  function setSpeed(v) { if (!eq(v, state.speed)) { state = Object.assign({}, state, { speed: v }); changed(); } }
  if (speedInput) {
    speedInput.addEventListener("input", function () { setSpeed(speedAt(+speedInput.value)); });
    speedInput.addEventListener("keydown", function (e) {
      var dir = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1, PageUp: 2, PageDown: -2 }[e.key];
      if (e.key === "Home") { e.preventDefault(); speedInput.value = 0; setSpeed(speedAt(0)); return; }
      if (e.key === "End") { e.preventDefault(); speedInput.value = STEPS; setSpeed(speedAt(STEPS)); return; }
      if (!dir) return;
      e.preventDefault();
      var p = posOf(state.speed), v = state.speed;
      if (Math.abs(dir) === 1) {
        while (p + dir >= 0 && p + dir <= STEPS && eq(v, state.speed)) { p += dir; v = speedAt(p); }
      } else {
        var marks = SPEED_MARKS.filter(function (m) { return dir > 0 ? cmp(m, state.speed) > 0 : cmp(m, state.speed) < 0; });
        if (!marks.length) return;
        v = dir > 0 ? marks[0] : marks[marks.length - 1];
        p = posOf(v);
      }
      speedInput.value = p;
      setSpeed(v);
    });
  }
  if (checkInput) {
    checkInput.addEventListener("input", function () {
      state = Object.assign({}, state, { check: Q(CHECKS[+checkInput.value]) });
      changed();
    });
  }
  document.querySelectorAll("input[name='workload']").forEach(function (radio) {
    radio.addEventListener("change", function () {
      if (radio.checked) { state = Object.assign({}, state, { workload: radio.value }); changed(); }
    });
  });
  window.addEventListener("hashchange", function () { state = fromHash(); update(); });
  var width = window.innerWidth;
  window.addEventListener("resize", function () {
    if (window.innerWidth === width) return;
    width = window.innerWidth;
    drawWriting(state, story(state, figures(state)));
    drawCeiling(state, story(state, figures(state)));
  });
  window.addEventListener("beforeprint", function () {
    drawWriting(state, story(state, figures(state)));
    drawCeiling(state, story(state, figures(state)));
  });

  // Speed marks under the slider, placed on its log scale.
  var ticks = document.getElementById("speed-marks");
  if (ticks) {
    SPEED_MARKS.forEach(function (m, i) {
      var li = document.createElement("li");
      li.textContent = M.markLabels[i];
      li.style.left = (posOf(m) / STEPS * 100).toFixed(2) + "%";
      ticks.appendChild(li);
    });
  }
  var checkTicks = document.getElementById("check-marks");
  if (checkTicks) {
    M.checkMarks.forEach(function (m) {
      var li = document.createElement("li");
      li.textContent = m[1];
      li.style.left = (checkPos(q(m[0])) / (CHECKS.length - 1) * 100).toFixed(2) + "%";
      checkTicks.appendChild(li);
    });
  }
  if (speedInput) speedInput.max = STEPS;
  if (checkInput) checkInput.max = CHECKS.length - 1;
  document.documentElement.className = "js";
  document.querySelectorAll("[data-live]").forEach(function (n) { n.hidden = false; });
  update();
  window.deckgenReady = performance.now();
})();
