// node_modules/preact/dist/preact.module.js
var n;
var l;
var u;
var t;
var i;
var r;
var o;
var e;
var f;
var c;
var a;
var s;
var h;
var p;
var v;
var y;
var d = {};
var w = [];
var _ = /acit|ex(?:s|g|n|p|$)|rph|grid|ows|mnc|ntw|ine[ch]|zoo|^ord|itera/i;
var g = Array.isArray;
function m(n3, l2) {
  for (var u2 in l2) n3[u2] = l2[u2];
  return n3;
}
function b(n3) {
  n3 && n3.parentNode && n3.parentNode.removeChild(n3);
}
function k(l2, u2, t3) {
  var i2, r2, o2, e2 = {};
  for (o2 in u2) "key" == o2 ? i2 = u2[o2] : "ref" == o2 ? r2 = u2[o2] : e2[o2] = u2[o2];
  if (arguments.length > 2 && (e2.children = arguments.length > 3 ? n.call(arguments, 2) : t3), "function" == typeof l2 && null != l2.defaultProps) for (o2 in l2.defaultProps) void 0 === e2[o2] && (e2[o2] = l2.defaultProps[o2]);
  return x(l2, e2, i2, r2, null);
}
function x(n3, t3, i2, r2, o2) {
  var e2 = { type: n3, props: t3, key: i2, ref: r2, __k: null, __: null, __b: 0, __e: null, __c: null, constructor: void 0, __v: null == o2 ? ++u : o2, __i: -1, __u: 0 };
  return null == o2 && null != l.vnode && l.vnode(e2), e2;
}
function S(n3) {
  return n3.children;
}
function C(n3, l2) {
  this.props = n3, this.context = l2;
}
function $(n3, l2) {
  if (null == l2) return n3.__ ? $(n3.__, n3.__i + 1) : null;
  for (var u2; l2 < n3.__k.length; l2++) if (null != (u2 = n3.__k[l2]) && null != u2.__e) return u2.__e;
  return "function" == typeof n3.type ? $(n3) : null;
}
function I(n3) {
  if (n3.__P && n3.__d) {
    var u2 = n3.__v, t3 = u2.__e, i2 = [], r2 = [], o2 = m({}, u2);
    o2.__v = u2.__v + 1, l.vnode && l.vnode(o2), q(n3.__P, o2, u2, n3.__n, n3.__P.namespaceURI, 32 & u2.__u ? [t3] : null, i2, null == t3 ? $(u2) : t3, !!(32 & u2.__u), r2), o2.__v = u2.__v, o2.__.__k[o2.__i] = o2, D(i2, o2, r2), u2.__e = u2.__ = null, o2.__e != t3 && P(o2);
  }
}
function P(n3) {
  if (null != (n3 = n3.__) && null != n3.__c) return n3.__e = n3.__c.base = null, n3.__k.some(function(l2) {
    if (null != l2 && null != l2.__e) return n3.__e = n3.__c.base = l2.__e;
  }), P(n3);
}
function A(n3) {
  (!n3.__d && (n3.__d = true) && i.push(n3) && !H.__r++ || r != l.debounceRendering) && ((r = l.debounceRendering) || o)(H);
}
function H() {
  try {
    for (var n3, l2 = 1; i.length; ) i.length > l2 && i.sort(e), n3 = i.shift(), l2 = i.length, I(n3);
  } finally {
    i.length = H.__r = 0;
  }
}
function L(n3, l2, u2, t3, i2, r2, o2, e2, f2, c2, a2) {
  var s2, h2, p2, v2, y2, _2, g2 = t3 && t3.__k || w, m2 = l2.length;
  for (f2 = T(u2, l2, g2, f2, m2), s2 = 0; s2 < m2; s2++) null != (p2 = u2.__k[s2]) && (h2 = -1 != p2.__i && g2[p2.__i] || d, p2.__i = s2, _2 = q(n3, p2, h2, i2, r2, o2, e2, f2, c2, a2), v2 = p2.__e, p2.ref && h2.ref != p2.ref && (h2.ref && J(h2.ref, null, p2), a2.push(p2.ref, p2.__c || v2, p2)), null == y2 && null != v2 && (y2 = v2), 4 & p2.__u ? (f2 = j(p2, f2, n3), h2.__e && (h2.__e = null)) : "function" == typeof p2.type && void 0 !== _2 ? f2 = _2 : v2 && (f2 = v2.nextSibling), p2.__u &= -7);
  return u2.__e = y2, f2;
}
function T(n3, l2, u2, t3, i2) {
  var r2, o2, e2, f2, c2, a2 = u2.length, s2 = a2, h2 = 0;
  for (n3.__k = new Array(i2), r2 = 0; r2 < i2; r2++) null != (o2 = l2[r2]) && "boolean" != typeof o2 && "function" != typeof o2 ? ("string" == typeof o2 || "number" == typeof o2 || "bigint" == typeof o2 || o2.constructor == String ? o2 = n3.__k[r2] = x(null, o2, null, null, null) : g(o2) ? o2 = n3.__k[r2] = x(S, { children: o2 }, null, null, null) : void 0 === o2.constructor && o2.__b > 0 ? o2 = n3.__k[r2] = x(o2.type, o2.props, o2.key, o2.ref ? o2.ref : null, o2.__v) : n3.__k[r2] = o2, f2 = r2 + h2, o2.__ = n3, o2.__b = n3.__b + 1, e2 = null, -1 != (c2 = o2.__i = O(o2, u2, f2, s2)) && (s2--, (e2 = u2[c2]) && (e2.__u |= 2)), null == e2 || null == e2.__v ? (-1 == c2 && (i2 > a2 ? h2-- : i2 < a2 && h2++), "function" != typeof o2.type && (o2.__u |= 4)) : c2 != f2 && (c2 == f2 - 1 ? h2-- : c2 == f2 + 1 ? h2++ : (c2 > f2 ? h2-- : h2++, o2.__u |= 4))) : n3.__k[r2] = null;
  if (s2) for (r2 = 0; r2 < a2; r2++) null != (e2 = u2[r2]) && 0 == (2 & e2.__u) && (e2.__e == t3 && (t3 = $(e2)), K(e2, e2));
  return t3;
}
function j(n3, l2, u2) {
  var t3, i2;
  if ("function" == typeof n3.type) {
    for (t3 = n3.__k, i2 = 0; t3 && i2 < t3.length; i2++) t3[i2] && (t3[i2].__ = n3, l2 = j(t3[i2], l2, u2));
    return l2;
  }
  n3.__e != l2 && (l2 && n3.type && !l2.parentNode && (l2 = $(n3)), l2 = u2.insertBefore(n3.__e, l2 || null));
  do {
    l2 = l2 && l2.nextSibling;
  } while (null != l2 && 8 == l2.nodeType);
  return l2;
}
function O(n3, l2, u2, t3) {
  var i2, r2, o2, e2 = n3.key, f2 = n3.type, c2 = l2[u2], a2 = null != c2 && 0 == (2 & c2.__u);
  if (null === c2 && null == e2 || a2 && e2 == c2.key && f2 == c2.type) return u2;
  if (t3 > (a2 ? 1 : 0)) {
    for (i2 = u2 - 1, r2 = u2 + 1; i2 >= 0 || r2 < l2.length; ) if (null != (c2 = l2[o2 = i2 >= 0 ? i2-- : r2++]) && 0 == (2 & c2.__u) && e2 == c2.key && f2 == c2.type) return o2;
  }
  return -1;
}
function z(n3, l2, u2) {
  "-" == l2[0] ? n3.setProperty(l2, null == u2 ? "" : u2) : n3[l2] = null == u2 ? "" : "number" != typeof u2 || _.test(l2) ? u2 : u2 + "px";
}
function N(n3, l2, u2, t3, i2) {
  var r2, o2;
  n: if ("style" == l2) if ("string" == typeof u2) n3.style.cssText = u2;
  else {
    if ("string" == typeof t3 && (n3.style.cssText = t3 = ""), t3) for (l2 in t3) u2 && l2 in u2 || z(n3.style, l2, "");
    if (u2) for (l2 in u2) t3 && u2[l2] == t3[l2] || z(n3.style, l2, u2[l2]);
  }
  else if ("o" == l2[0] && "n" == l2[1]) r2 = l2 != (l2 = l2.replace(s, "$1")), o2 = l2.toLowerCase(), l2 = o2 in n3 || "onFocusOut" == l2 || "onFocusIn" == l2 ? o2.slice(2) : l2.slice(2), n3.l || (n3.l = {}), n3.l[l2 + r2] = u2, u2 ? t3 ? u2[a] = t3[a] : (u2[a] = h, n3.addEventListener(l2, r2 ? v : p, r2)) : n3.removeEventListener(l2, r2 ? v : p, r2);
  else {
    if ("http://www.w3.org/2000/svg" == i2) l2 = l2.replace(/xlink(H|:h)/, "h").replace(/sName$/, "s");
    else if ("width" != l2 && "height" != l2 && "href" != l2 && "list" != l2 && "form" != l2 && "tabIndex" != l2 && "download" != l2 && "rowSpan" != l2 && "colSpan" != l2 && "role" != l2 && "popover" != l2 && l2 in n3) try {
      n3[l2] = null == u2 ? "" : u2;
      break n;
    } catch (n4) {
    }
    "function" == typeof u2 || (null == u2 || false === u2 && "-" != l2[4] ? n3.removeAttribute(l2) : n3.setAttribute(l2, "popover" == l2 && 1 == u2 ? "" : u2));
  }
}
function V(n3) {
  return function(u2) {
    if (this.l) {
      var t3 = this.l[u2.type + n3];
      if (null == u2[c]) u2[c] = h++;
      else if (u2[c] < t3[a]) return;
      return t3(l.event ? l.event(u2) : u2);
    }
  };
}
function q(n3, u2, t3, i2, r2, o2, e2, f2, c2, a2) {
  var s2, h2, p2, v2, y2, d2, _2, k2, x2, M, I2, P2, A2, H2, T2, j2, F = u2.type;
  if (void 0 !== u2.constructor) return null;
  128 & t3.__u && (c2 = !!(32 & t3.__u), o2 = [f2 = u2.__e = t3.__e]), (s2 = l.__b) && s2(u2);
  n: if ("function" == typeof F) {
    h2 = e2.length;
    try {
      if (x2 = u2.props, M = F.prototype && F.prototype.render, I2 = (s2 = F.contextType) && i2[s2.__c], P2 = s2 ? I2 ? I2.props.value : s2.__ : i2, t3.__c ? k2 = (p2 = u2.__c = t3.__c).__ = p2.__E : (M ? u2.__c = p2 = new F(x2, P2) : (u2.__c = p2 = new C(x2, P2), p2.constructor = F, p2.render = Q), I2 && I2.sub(p2), p2.state || (p2.state = {}), p2.__n = i2, v2 = p2.__d = true, p2.__h = [], p2._sb = []), M && null == p2.__s && (p2.__s = p2.state), M && null != F.getDerivedStateFromProps && (p2.__s == p2.state && (p2.__s = m({}, p2.__s)), m(p2.__s, F.getDerivedStateFromProps(x2, p2.__s))), y2 = p2.props, d2 = p2.state, p2.__v = u2, v2) M && null == F.getDerivedStateFromProps && null != p2.componentWillMount && p2.componentWillMount(), M && null != p2.componentDidMount && p2.__h.push(p2.componentDidMount);
      else {
        if (M && null == F.getDerivedStateFromProps && x2 !== y2 && null != p2.componentWillReceiveProps && p2.componentWillReceiveProps(x2, P2), u2.__v == t3.__v || !p2.__e && null != p2.shouldComponentUpdate && false === p2.shouldComponentUpdate(x2, p2.__s, P2)) {
          u2.__v != t3.__v && (p2.props = x2, p2.state = p2.__s, p2.__d = false), u2.__e = t3.__e, u2.__k = t3.__k, u2.__k.some(function(n4) {
            n4 && (n4.__ = u2);
          }), w.push.apply(p2.__h, p2._sb), p2._sb = [], p2.__h.length && e2.push(p2), f2 = $(t3);
          break n;
        }
        null != p2.componentWillUpdate && p2.componentWillUpdate(x2, p2.__s, P2), M && null != p2.componentDidUpdate && p2.__h.push(function() {
          p2.componentDidUpdate(y2, d2, _2);
        });
      }
      if (p2.context = P2, p2.props = x2, p2.__P = n3, p2.__e = false, A2 = l.__r, H2 = 0, M) p2.state = p2.__s, p2.__d = false, A2 && A2(u2), s2 = p2.render(p2.props, p2.state, p2.context), w.push.apply(p2.__h, p2._sb), p2._sb = [];
      else do {
        p2.__d = false, A2 && A2(u2), s2 = p2.render(p2.props, p2.state, p2.context), p2.state = p2.__s;
      } while (p2.__d && ++H2 < 25);
      p2.state = p2.__s, null != p2.getChildContext && (i2 = m(m({}, i2), p2.getChildContext())), M && !v2 && null != p2.getSnapshotBeforeUpdate && (_2 = p2.getSnapshotBeforeUpdate(y2, d2)), T2 = null != s2 && s2.type === S && null == s2.key ? E(s2.props.children) : s2, f2 = L(n3, g(T2) ? T2 : [T2], u2, t3, i2, r2, o2, e2, f2, c2, a2), p2.base = u2.__e, u2.__u &= -161, p2.__h.length && e2.push(p2), k2 && (p2.__E = p2.__ = null);
    } catch (n4) {
      if (e2.length = h2, u2.__v = null, c2 || null != o2) {
        if (n4.then) {
          for (u2.__u |= c2 ? 160 : 128; f2 && 8 == f2.nodeType && f2.nextSibling; ) f2 = f2.nextSibling;
          null != o2 && (o2[o2.indexOf(f2)] = null), u2.__e = f2;
        } else if (null != o2) for (j2 = o2.length; j2--; ) b(o2[j2]);
      } else u2.__e = t3.__e;
      null == u2.__k && (u2.__k = t3.__k || []), n4.then || B(u2), l.__e(n4, u2, t3);
    }
  } else null == o2 && u2.__v == t3.__v ? (u2.__k = t3.__k, u2.__e = t3.__e) : f2 = u2.__e = G(t3.__e, u2, t3, i2, r2, o2, e2, c2, a2);
  return (s2 = l.diffed) && s2(u2), 128 & u2.__u ? void 0 : f2;
}
function B(n3) {
  n3 && (n3.__c && (n3.__c.__e = true), n3.__k && n3.__k.some(B));
}
function D(n3, u2, t3) {
  for (var i2 = 0; i2 < t3.length; i2++) J(t3[i2], t3[++i2], t3[++i2]);
  l.__c && l.__c(u2, n3), n3.some(function(u3) {
    try {
      n3 = u3.__h, u3.__h = [], n3.some(function(n4) {
        n4.call(u3);
      });
    } catch (n4) {
      l.__e(n4, u3.__v);
    }
  });
}
function E(n3) {
  return "object" != typeof n3 || null == n3 || n3.__b > 0 ? n3 : g(n3) ? n3.map(E) : void 0 !== n3.constructor ? null : m({}, n3);
}
function G(u2, t3, i2, r2, o2, e2, f2, c2, a2) {
  var s2, h2, p2, v2, y2, w2, _2, m2 = i2.props || d, k2 = t3.props, x2 = t3.type;
  if ("svg" == x2 ? o2 = "http://www.w3.org/2000/svg" : "math" == x2 ? o2 = "http://www.w3.org/1998/Math/MathML" : o2 || (o2 = "http://www.w3.org/1999/xhtml"), null != e2) {
    for (s2 = 0; s2 < e2.length; s2++) if ((y2 = e2[s2]) && "setAttribute" in y2 == !!x2 && (x2 ? y2.localName == x2 : 3 == y2.nodeType)) {
      u2 = y2, e2[s2] = null;
      break;
    }
  }
  if (null == u2) {
    if (null == x2) return document.createTextNode(k2);
    u2 = document.createElementNS(o2, x2, k2.is && k2), c2 && (l.__m && l.__m(t3, e2), c2 = false), e2 = null;
  }
  if (null == x2) m2 === k2 || c2 && u2.data == k2 || (u2.data = k2);
  else {
    if (e2 = "textarea" == x2 && null != k2.defaultValue ? null : e2 && n.call(u2.childNodes), !c2 && null != e2) for (m2 = {}, s2 = 0; s2 < u2.attributes.length; s2++) m2[(y2 = u2.attributes[s2]).name] = y2.value;
    for (s2 in m2) y2 = m2[s2], "dangerouslySetInnerHTML" == s2 ? p2 = y2 : "children" == s2 || s2 in k2 || "value" == s2 && "defaultValue" in k2 || "checked" == s2 && "defaultChecked" in k2 || N(u2, s2, null, y2, o2);
    for (s2 in k2) y2 = k2[s2], "children" == s2 ? v2 = y2 : "dangerouslySetInnerHTML" == s2 ? h2 = y2 : "value" == s2 ? w2 = y2 : "checked" == s2 ? _2 = y2 : c2 && "function" != typeof y2 || m2[s2] === y2 || N(u2, s2, y2, m2[s2], o2);
    if (h2) c2 || p2 && (h2.__html == p2.__html || h2.__html == u2.innerHTML) || (u2.innerHTML = h2.__html), t3.__k = [];
    else if (p2 && (u2.innerHTML = ""), L("template" == t3.type ? u2.content : u2, g(v2) ? v2 : [v2], t3, i2, r2, "foreignObject" == x2 ? "http://www.w3.org/1999/xhtml" : o2, e2, f2, e2 ? e2[0] : i2.__k && $(i2, 0), c2, a2), null != e2) for (s2 = e2.length; s2--; ) b(e2[s2]);
    c2 && "textarea" != x2 || (s2 = "value", "progress" == x2 && null == w2 ? u2.removeAttribute("value") : null != w2 && (w2 !== u2[s2] || "progress" == x2 && !w2 || "option" == x2 && w2 != m2[s2]) && N(u2, s2, w2, m2[s2], o2), s2 = "checked", null != _2 && _2 != u2[s2] && N(u2, s2, _2, m2[s2], o2));
  }
  return u2;
}
function J(n3, u2, t3) {
  try {
    if ("function" == typeof n3) {
      var i2 = "function" == typeof n3.__u;
      i2 && n3.__u(), i2 && null == u2 || (n3.__u = n3(u2));
    } else n3.current = u2;
  } catch (n4) {
    l.__e(n4, t3);
  }
}
function K(n3, u2, t3) {
  var i2, r2;
  if (l.unmount && l.unmount(n3), (i2 = n3.ref) && (i2.current && i2.current != n3.__e || J(i2, null, u2)), null != (i2 = n3.__c)) {
    if (i2.componentWillUnmount) try {
      i2.componentWillUnmount();
    } catch (n4) {
      l.__e(n4, u2);
    }
    i2.base = i2.__P = i2.__n = null;
  }
  if (i2 = n3.__k) for (r2 = 0; r2 < i2.length; r2++) i2[r2] && K(i2[r2], u2, t3 || "function" != typeof n3.type);
  t3 || b(n3.__e), n3.__c = n3.__ = n3.__e = void 0;
}
function Q(n3, l2, u2) {
  return this.constructor(n3, u2);
}
function R(u2, t3, i2) {
  var r2, o2, e2, f2;
  t3 == document && (t3 = document.documentElement), l.__ && l.__(u2, t3), o2 = (r2 = "function" == typeof i2) ? null : i2 && i2.__k || t3.__k, e2 = [], f2 = [], q(t3, u2 = (!r2 && i2 || t3).__k = k(S, null, [u2]), o2 || d, d, t3.namespaceURI, !r2 && i2 ? [i2] : o2 ? null : t3.firstChild ? n.call(t3.childNodes) : null, e2, !r2 && i2 ? i2 : o2 ? o2.__e : t3.firstChild, r2, f2), D(e2, u2, f2), u2.props.children = null;
}
n = w.slice, l = { __e: function(n3, l2, u2, t3) {
  for (var i2, r2, o2; l2 = l2.__; ) if ((i2 = l2.__c) && !i2.__) try {
    if ((r2 = i2.constructor) && null != r2.getDerivedStateFromError && (i2.setState(r2.getDerivedStateFromError(n3)), o2 = i2.__d), null != i2.componentDidCatch && (i2.componentDidCatch(n3, t3 || {}), o2 = i2.__d), o2) return i2.__E = i2;
  } catch (l3) {
    n3 = l3;
  }
  throw n3;
} }, u = 0, t = function(n3) {
  return null != n3 && void 0 === n3.constructor;
}, C.prototype.setState = function(n3, l2) {
  var u2;
  u2 = null != this.__s && this.__s != this.state ? this.__s : this.__s = m({}, this.state), "function" == typeof n3 && (n3 = n3(m({}, u2), this.props)), n3 && m(u2, n3), null != n3 && this.__v && (l2 && this._sb.push(l2), A(this));
}, C.prototype.forceUpdate = function(n3) {
  this.__v && (this.__e = true, n3 && this.__h.push(n3), A(this));
}, C.prototype.render = S, i = [], o = "function" == typeof Promise ? Promise.prototype.then.bind(Promise.resolve()) : setTimeout, e = function(n3, l2) {
  return n3.__v.__b - l2.__v.__b;
}, H.__r = 0, f = Math.random().toString(8), c = "__d" + f, a = "__a" + f, s = /(PointerCapture)$|Capture$/i, h = 0, p = V(false), v = V(true), y = 0;

// node_modules/htm/dist/htm.module.js
var n2 = function(t3, s2, r2, e2) {
  var u2;
  s2[0] = 0;
  for (var h2 = 1; h2 < s2.length; h2++) {
    var p2 = s2[h2++], a2 = s2[h2] ? (s2[0] |= p2 ? 1 : 2, r2[s2[h2++]]) : s2[++h2];
    3 === p2 ? e2[0] = a2 : 4 === p2 ? e2[1] = Object.assign(e2[1] || {}, a2) : 5 === p2 ? (e2[1] = e2[1] || {})[s2[++h2]] = a2 : 6 === p2 ? e2[1][s2[++h2]] += a2 + "" : p2 ? (u2 = t3.apply(a2, n2(t3, a2, r2, ["", null])), e2.push(u2), a2[0] ? s2[0] |= 2 : (s2[h2 - 2] = 0, s2[h2] = u2)) : e2.push(a2);
  }
  return e2;
};
var t2 = /* @__PURE__ */ new Map();
function htm_module_default(s2) {
  var r2 = t2.get(this);
  return r2 || (r2 = /* @__PURE__ */ new Map(), t2.set(this, r2)), (r2 = n2(this, r2.get(s2) || (r2.set(s2, r2 = (function(n3) {
    for (var t3, s3, r3 = 1, e2 = "", u2 = "", h2 = [0], p2 = function(n4) {
      1 === r3 && (n4 || (e2 = e2.replace(/^\s*\n\s*|\s*\n\s*$/g, ""))) ? h2.push(0, n4, e2) : 3 === r3 && (n4 || e2) ? (h2.push(3, n4, e2), r3 = 2) : 2 === r3 && "..." === e2 && n4 ? h2.push(4, n4, 0) : 2 === r3 && e2 && !n4 ? h2.push(5, 0, true, e2) : r3 >= 5 && ((e2 || !n4 && 5 === r3) && (h2.push(r3, 0, e2, s3), r3 = 6), n4 && (h2.push(r3, n4, 0, s3), r3 = 6)), e2 = "";
    }, a2 = 0; a2 < n3.length; a2++) {
      a2 && (1 === r3 && p2(), p2(a2));
      for (var l2 = 0; l2 < n3[a2].length; l2++) t3 = n3[a2][l2], 1 === r3 ? "<" === t3 ? (p2(), h2 = [h2], r3 = 3) : e2 += t3 : 4 === r3 ? "--" === e2 && ">" === t3 ? (r3 = 1, e2 = "") : e2 = t3 + e2[0] : u2 ? t3 === u2 ? u2 = "" : e2 += t3 : '"' === t3 || "'" === t3 ? u2 = t3 : ">" === t3 ? (p2(), r3 = 1) : r3 && ("=" === t3 ? (r3 = 5, s3 = e2, e2 = "") : "/" === t3 && (r3 < 5 || ">" === n3[a2][l2 + 1]) ? (p2(), 3 === r3 && (h2 = h2[0]), r3 = h2, (h2 = h2[0]).push(2, 0, r3), r3 = 0) : " " === t3 || "	" === t3 || "\n" === t3 || "\r" === t3 ? (p2(), r3 = 2) : e2 += t3), 3 === r3 && "!--" === e2 && (r3 = 4, h2 = h2[0]);
    }
    return p2(), h2;
  })(s2)), r2), arguments, [])).length > 1 ? r2 : r2[0];
}

// src/incremental.js
var html = htm_module_default.bind(k);

// src/keys.js
var ROOT = "data-rw-keys";
var SUPPRESS = "data-lm-suppress-shortcuts";
function forHost(e2) {
  const altGraph = typeof e2.getModifierState === "function" && e2.getModifierState("AltGraph");
  return !altGraph && (e2.ctrlKey || e2.metaKey || e2.altKey) || e2.key === "Escape" || e2.key === "Tab" || e2.shiftKey && e2.key === "Enter";
}
var marked = null;
function mark(e2) {
  if (marked) marked.removeAttribute(SUPPRESS);
  marked = null;
  const target = e2.target;
  if (forHost(e2) || !target || target.nodeType !== 1 || target.hasAttribute(SUPPRESS)) return;
  if (!e2.composedPath().some((node) => node.nodeType === 1 && node.hasAttribute(ROOT))) return;
  target.setAttribute(SUPPRESS, "");
  marked = target;
}
var watched = /* @__PURE__ */ new WeakSet();
function keepKeys(el, { focusable = false } = {}) {
  const win = el.ownerDocument.defaultView;
  if (win && !watched.has(win)) {
    watched.add(win);
    win.addEventListener("keydown", mark, true);
  }
  el.setAttribute(ROOT, "");
  const focus = focusable && !el.hasAttribute("tabindex");
  if (focus) el.setAttribute("tabindex", "-1");
  const stop = (e2) => {
    if (!forHost(e2)) e2.stopPropagation();
  };
  el.addEventListener("keydown", stop);
  return () => {
    el.removeEventListener("keydown", stop);
    el.removeAttribute(ROOT);
    if (focus) el.removeAttribute("tabindex");
  };
}

// src/patch.js
function put(node, key, value) {
  Object.defineProperty(node, key, { value, writable: true, enumerable: true, configurable: true });
}
function patched(base, ops) {
  const fresh = /* @__PURE__ */ new Set();
  const own = (node) => {
    if (fresh.has(node)) return node;
    const copy = Array.isArray(node) ? node.slice() : { ...node };
    fresh.add(copy);
    return copy;
  };
  const at = (node, op) => {
    if (op.length === 4) {
      const out = own(node);
      out.splice(op[1], op[2] - op[1], ...op[3]);
      return out;
    }
    return op[1];
  };
  const change = (node, path, i2, op) => {
    const out = own(node);
    const key = path[i2];
    if (i2 < path.length - 1) put(out, key, change(node[key], path, i2 + 1, op));
    else if (op.length === 4) put(out, key, at(node[key], op));
    else if (op.length > 1) put(out, key, op[1]);
    else delete out[key];
    return out;
  };
  let view = base;
  for (const op of ops) view = op[0].length ? change(view, op[0], 0, op) : at(view, op);
  return view;
}

// src/view_trait.js
function typed(data, Type = Int8Array) {
  if (data instanceof Type) return data;
  const size = Type.BYTES_PER_ELEMENT;
  if (data instanceof ArrayBuffer) data = new Uint8Array(data);
  if (ArrayBuffer.isView(data)) {
    if (data.byteOffset % size === 0 && data.byteLength % size === 0) {
      return new Type(data.buffer, data.byteOffset, data.byteLength / size);
    }
    return new Type(new Uint8Array(data.buffer, data.byteOffset, data.byteLength).slice().buffer);
  }
  return Type.from(data || []);
}
var parsedBases = /* @__PURE__ */ new WeakMap();
var lastViews = /* @__PURE__ */ new WeakMap();
function baseState(value) {
  let state = parsedBases.get(value);
  if (state === void 0) {
    state = JSON.parse(value.json);
    parsedBases.set(value, state);
  }
  return state;
}
function viewOf(model, name = "_view") {
  const value = model.get(name);
  const base = value && value.patch ? model.get(`${name}_base`) : null;
  let seen = lastViews.get(model);
  if (!seen) lastViews.set(model, seen = {});
  const last = seen[name];
  if (last && last.value === value && last.base === base) return last.view;
  let view = null;
  if (value && value.json) {
    if (value.patch) {
      if (!base || !base.json || base.base !== value.base) return last ? last.view : null;
      view = patched(baseState(base), JSON.parse(value.json));
    } else view = JSON.parse(value.json);
    if (view.matrix) view = { ...view, matrix: { ...view.matrix, cells: typed(value.cells, Int8Array) } };
  }
  seen[name] = { value, base, view };
  return view;
}

// src/state_space.js
var cellIndex = (grid, c2, r2, a2) => (c2 * grid.retrievals.length + r2) * grid.answers.length + a2;
function step(grid, i2, key) {
  const A2 = grid.answers.length;
  const R2 = grid.retrievals.length;
  const a2 = i2 % A2;
  const r2 = Math.floor(i2 / A2) % R2;
  const c2 = Math.floor(i2 / (A2 * R2));
  if (key === "ArrowRight") return a2 < A2 - 1 ? i2 + 1 : c2 < grid.rules.length - 1 ? cellIndex(grid, c2 + 1, r2, 0) : -1;
  if (key === "ArrowLeft") return a2 > 0 ? i2 - 1 : c2 > 0 ? cellIndex(grid, c2 - 1, r2, A2 - 1) : -1;
  if (key === "ArrowDown") return r2 < R2 - 1 ? i2 + A2 : -1;
  if (key === "ArrowUp") return r2 > 0 ? i2 - A2 : -1;
  return -1;
}
var fill = (value) => `color-mix(in srgb, var(--rw-accent) ${Math.round(12 + 78 * value)}%, var(--rw-bg))`;
function Cell({ grid, i: i2, state, metric, label, here, stop, go }) {
  const value = (grid.values[metric] ?? [])[i2];
  const shown = (grid.labels[metric] ?? [])[i2] ?? "";
  const defined = value !== null && value !== void 0;
  const words = `retrieval: ${state.retrieval}; answer: ${state.answer}; citation: ${state.citation}; ${label}: ${defined ? shown : "Undefined"}`;
  const cls = ["rw-cell", !defined && "rw-undefined", defined && value > 0.55 && "rw-space-high", here && "rw-current"];
  return html`<button class=${cls.filter(Boolean).join(" ")} type="button" data-cell=${`${state.retrieval}|${state.answer}|${state.citation}`}
    tabindex=${i2 === stop ? "0" : "-1"} aria-current=${here ? "true" : null} aria-label=${words} title=${words}
    style=${defined ? `background:${fill(value)}` : null} onClick=${() => go(state)}>${shown}</button>`;
}
function now(grid, current, at) {
  return at < 0 ? "Explorer: passages edited, in no cell of the sweep (click a cell to go back to a bundle)." : `Explorer: ${current.retrieval} · ${current.answer} · ${current.citation} — ` + grid.metrics.map((m2) => `${m2.label} ${grid.labels[m2.key][at]}`).join(" · ");
}
function Space({ grid, metric, current, stop, keys, set }) {
  const label = grid.metrics.find((m2) => m2.key === metric)?.label ?? metric;
  const states = [];
  grid.rules.forEach((citation) => grid.retrievals.forEach((retrieval) => grid.answers.forEach((answer) => states.push({ retrieval, answer, citation }))));
  const at = states.findIndex((x2) => x2.retrieval === current.retrieval && x2.answer === current.answer && x2.citation === current.citation);
  const go = (state) => set("current", state);
  return html`<div class="rw-space" role="group" aria-label=${grid.title} onKeyDown=${keys}>
    <div class="rw-space-head">
      <strong class="rw-space-title">${label} over all ${states.length} states</strong>
      <label>Metric <select data-testid="metric" aria-label="Metric" value=${metric} onChange=${(e2) => set("metric", e2.target.value)}>
        ${grid.metrics.map((m2) => html`<option value=${m2.key}>${m2.label}</option>`)}</select></label>
      <span class="rw-space-legend">
        <span class="rw-space-swatch" style=${`background:${fill(0)}`}>0</span>
        <span class="rw-space-swatch rw-space-high" style=${`background:${fill(1)}`}>1</span>
        <span class="rw-space-swatch rw-space-undefined">Undef</span> Undefined ·${" "}
        <span class="rw-space-swatch rw-space-outlined">\u00a0</span> the Explorer's state · click a cell to go there</span>
    </div>
    <p class="rw-space-now" data-testid="now" aria-live="polite">${now(grid, current, at)}</p>
    <div class="rw-space-panels">
      ${grid.rules.map((rule, c2) => html`<section class="rw-space-panel" key=${rule}>
        <h4>Citation rule: ${rule}</h4>
        <table>
          <thead><tr><th class="rw-space-corner" scope="col">retrieval ↓\u2003answer →</th>${grid.answers.map((a2) => html`<th scope="col">${a2}</th>`)}</tr></thead>
          <tbody>${grid.retrievals.map((retrieval, r2) => html`<tr><th scope="row">${retrieval}</th>
            ${grid.answers.map((answer, a2) => {
    const i2 = cellIndex(grid, c2, r2, a2);
    return html`<td><${Cell} grid=${grid} i=${i2} state=${states[i2]} metric=${metric} label=${label}
                here=${i2 === at} stop=${stop(at)} go=${go} /></td>`;
  })}</tr>`)}</tbody>
        </table>
      </section>`)}
    </div>
  </div>`;
}
var state_space_default = {
  render({ model, el }) {
    let grid = null;
    let stop = -1;
    const set = (name, value) => {
      model.set(name, value);
      model.save_changes();
      draw();
    };
    const unkeep = keepKeys(el, { focusable: true });
    const keys = (e2) => {
      const cells = [...el.querySelectorAll(".rw-cell")];
      const from = cells.indexOf(e2.target);
      const to = from < 0 ? -1 : step(grid, from, e2.key);
      if (to < 0) return;
      e2.preventDefault();
      stop = to;
      draw();
      cells[to].focus();
    };
    const draw = () => {
      if (!el.contains(document.activeElement)) stop = -1;
      const inside = stop >= 0;
      R(html`<${Space} grid=${grid} metric=${model.get("metric")} current=${model.get("current") ?? {}}
        stop=${(at) => inside ? stop : Math.max(at, 0)} keys=${keys} set=${set} />`, el);
    };
    const regrid = () => {
      grid = viewOf(model, "_grid");
      draw();
    };
    regrid();
    model.on("change:_grid", regrid);
    model.on("change:metric", draw);
    model.on("change:current", draw);
    return () => {
      model.off("change:_grid", regrid);
      model.off("change:metric", draw);
      model.off("change:current", draw);
      R(null, el);
      unkeep();
    };
  }
};

// src/live.js
var NOTE = "Snapshot: no kernel answers this view, so its controls do nothing. Run the cell again to use them.";
var BUSY = "Busy: the kernel is running other cells; this view answers when it is free.";
var WAITING = "Waiting for the kernel (busy?): this view answers when the kernel is free; if it never does, run the cell again.";
function kernelOf(model) {
  const manager = model.widget_manager;
  if (!manager || typeof manager !== "object" || !("kernel" in manager)) return void 0;
  return manager.kernel ?? null;
}
function watchLive(model, host, { wait = 3e3 } = {}) {
  let note = null;
  let timer = null;
  const kernel = host.closest?.(".rw-snapshot-view") ? void 0 : kernelOf(model);
  const signal = kernel && kernel.statusChanged && typeof kernel.statusChanged.connect === "function" ? kernel.statusChanged : null;
  const say = (state, text) => {
    host.dataset.rwLive = state;
    if (!note) {
      note = host.ownerDocument.createElement("p");
      note.className = "rw-live-note";
      note.setAttribute("role", "status");
      host.prepend(note);
    }
    note.textContent = text;
  };
  const unwatch = () => {
    if (signal) signal.disconnect(changed);
  };
  const stop = () => {
    clearTimeout(timer);
    unwatch();
    note?.remove();
    note = null;
    model.off("msg:custom", answered);
  };
  const answered = () => {
    stop();
    host.dataset.rwLive = "answered";
  };
  const decide = () => {
    if (host.closest?.(".rw-snapshot-view")) return;
    if (kernel === void 0) return say("waiting", WAITING);
    if (kernel && kernel.status === "busy") return say("busy", BUSY);
    unwatch();
    say("snapshot", NOTE);
  };
  function changed() {
    clearTimeout(timer);
    if (kernel.status === "busy" && host.dataset.rwLive === "busy") return;
    timer = setTimeout(decide, wait);
  }
  if (signal) signal.connect(changed);
  timer = setTimeout(decide, wait);
  model.on("msg:custom", answered);
  model.send({ type: "ping" });
  return stop;
}
function withLive(widget) {
  return {
    ...widget,
    async render({ model, el, ...rest }) {
      const inner = el.ownerDocument.createElement("div");
      inner.className = "rw-live-root";
      el.append(inner);
      const stop = watchLive(model, el);
      const cleanup = await widget.render({ model, el: inner, ...rest });
      return () => {
        stop();
        if (typeof cleanup === "function") cleanup();
      };
    }
  };
}

// live_state_space.js
var live_state_space_default = withLive(state_space_default);
export {
  live_state_space_default as default
};
