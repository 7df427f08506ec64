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
function sameBytes(a2, b2) {
  if (a2.byteLength !== b2.byteLength) return false;
  const x2 = new Uint8Array(a2.buffer, a2.byteOffset, a2.byteLength);
  const y2 = new Uint8Array(b2.buffer, b2.byteOffset, b2.byteLength);
  for (let i2 = 0; i2 < x2.length; i2++) if (x2[i2] !== y2[i2]) return false;
  return true;
}
function share(prev, next) {
  if (Object.is(prev, next)) return prev;
  if (prev === null || next === null || typeof prev !== "object" || typeof next !== "object") return next;
  if (ArrayBuffer.isView(next) || ArrayBuffer.isView(prev)) {
    return ArrayBuffer.isView(next) && ArrayBuffer.isView(prev) && sameBytes(prev, next) ? prev : next;
  }
  if (Array.isArray(next) !== Array.isArray(prev)) return next;
  if (Array.isArray(next)) {
    let same2 = prev.length === next.length;
    const out2 = next.map((x2, i2) => {
      const y2 = share(prev[i2], x2);
      if (y2 !== prev[i2]) same2 = false;
      return y2;
    });
    return same2 ? prev : out2;
  }
  const keys = Object.keys(next);
  let same = keys.length === Object.keys(prev).length;
  const out = {};
  for (const k2 of keys) {
    out[k2] = share(prev[k2], next[k2]);
    if (out[k2] !== prev[k2]) same = false;
  }
  return same ? prev : out;
}
function shallowEqual(a2, b2) {
  const ka = Object.keys(a2);
  if (ka.length !== Object.keys(b2).length) return false;
  return ka.every((k2) => Object.is(a2[k2], b2[k2]));
}
function memo(render2) {
  class Memo extends C {
    shouldComponentUpdate(next) {
      return !shallowEqual(this.props, next);
    }
    render(props) {
      return render2(props);
    }
  }
  Memo.displayName = render2.name;
  return Memo;
}

// src/cards.js
function itemsNote(c2) {
  if (!c2.denominator_items.length) return null;
  const counted = c2.numerator_items.length ? c2.numerator_items.join(", ") : "none";
  return `counted: ${counted} — out of: ${c2.denominator_items.join(", ")}`;
}
function Prediction({ c: c2, predictions, send }) {
  const p2 = c2.prediction;
  const commit = (input) => {
    const text = input.value.trim();
    if ((predictions[c2.name] || "") === text) return;
    const next = { ...predictions };
    if (text) next[c2.name] = text;
    else delete next[c2.name];
    send({ predictions: next });
  };
  let verdict = null;
  if (p2 && !p2.readable) verdict = html`<div class="rw-verdict rw-verdict-no">${p2.message}</div>`;
  else if (p2)
    verdict = html`<div class=${p2.match ? "rw-verdict rw-verdict-yes" : "rw-verdict rw-verdict-no"} data-testid="verdict">
      ${p2.match ? `✓ You predicted ${p2.shown}: right` : `✗ You predicted ${p2.shown}; actual ${c2.shown}`}
    </div>`;
  return html`<div class="rw-prediction">
    <input type="text" class="rw-predict-input" placeholder="0.5, 2/3 or Undefined"
      aria-label=${`Your prediction for ${c2.label}`} value=${p2 ? p2.text : ""}
      onChange=${(e2) => commit(e2.target)} onKeyDown=${(e2) => e2.key === "Enter" && commit(e2.target)} />
    ${verdict}
  </div>`;
}
var Card = memo(function Card2({ c: c2, predict, predictions, send }) {
  const undef = c2.value === null && !c2.hidden;
  const substitute = c2.value !== null && c2.reason && c2.status === "defined";
  const cls = ["rw-card", undef && "rw-undefined", c2.hidden && "rw-concealed", substitute && "rw-substitute"];
  let body;
  if (c2.hidden) {
    body = html`<div class="rw-card-value rw-hidden-value" data-testid="value">?</div>
      <div class="rw-card-fraction">Enter your prediction to reveal</div>`;
  } else {
    body = html`<div class="rw-card-value" data-testid="value">${c2.shown}${substitute ? html`<span class="rw-substitute-mark"> (substitute)</span>` : null}</div>
      <div class="rw-card-fraction" data-testid="fraction">${c2.fraction}</div>
      ${c2.reason && (undef || substitute) ? html`<div class="rw-card-reason">${c2.reason}</div>` : null}`;
  }
  return html`<article class=${cls.filter(Boolean).join(" ")} data-metric=${c2.name} aria-label=${c2.label}
      title=${c2.hidden ? null : itemsNote(c2)}>
    <div class="rw-card-label">${c2.label}${c2.lower_is_better ? html`<span class="rw-hint" title="lower is better"> ↓</span>` : null}</div>
    ${body}
    <div class="rw-card-def">${c2.definition}</div>
    ${predict ? html`<${Prediction} c=${c2} predictions=${predictions} send=${send} />` : null}
  </article>`;
});
function Group({ g: g2, predict, predictions, send }) {
  return html`<div class="rw-card-group" data-group=${g2.group}>
    <h4>${g2.title}</h4>
    <div class="rw-card-grid">
      ${g2.cards.map((c2) => html`<${Card} key=${c2.name} c=${c2} predict=${predict} predictions=${predictions} send=${send} />`)}
    </div>
  </div>`;
}
var Cards = memo(function Cards2({ groups, missing, predict, predictions, send }) {
  const primary = groups.filter((g2) => !g2.secondary);
  const secondary = groups.filter((g2) => g2.secondary);
  const n3 = secondary.reduce((k2, g2) => k2 + g2.cards.length, 0);
  const group = (g2) => html`<${Group} key=${g2.group} g=${g2} predict=${predict} predictions=${predictions} send=${send} />`;
  return html`<section class="rw-cards" data-testid="cards">
    ${primary.map(group)}
    ${secondary.length ? html`<details class="rw-more"><summary>RAGChecker metrics on the same state (${n3})</summary>${secondary.map(group)}</details>` : null}
    ${missing.length ? html`<p class="rw-note">Not computable for this data: ${missing.map(
    (m2, i2) => html`${i2 ? "; " : ""}<b>${m2.label}</b> (${m2.reason})`
  )}</p>` : null}
  </section>`;
});

// src/text.js
var BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
var codePoint = (c2) => `⟨U+${c2.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")}⟩`;
function showId(id) {
  return String(id).replace(BIDI, codePoint);
}
function Id({ id, max = 40 }) {
  const shown = showId(id);
  if (shown.length <= max) return html`<bdi class="rw-idtext">${shown}</bdi>`;
  return html`<bdi class="rw-idtext rw-cut" title=${shown}>${shown.slice(0, max - 1)}…</bdi>`;
}
function ids(items, empty = "—") {
  return items && items.length ? items.map(showId).join(", ") : empty;
}
function YesNo({ value, words = ["Yes", "No"] }) {
  if (value === null || value === void 0) return html`<span class="rw-unknown">? unknown</span>`;
  const yes = value === true || value === "yes";
  return html`<span class=${yes ? "rw-yes" : "rw-no"}>${yes ? `✓ ${words[0]}` : `✗ ${words[1]}`}</span>`;
}
var LONG = 300;
var LongText = class extends C {
  render({ text, clamp = false }, { whole }) {
    const s2 = String(text);
    const long = s2.length > LONG;
    const shown = long && !whole ? `${s2.slice(0, LONG)}…` : s2;
    const body = clamp && !whole ? html`<span class="rw-clamp">${shown}</span>` : shown;
    if (!long) return body;
    return html`${body}<button type="button" class="rw-whole"
      aria-expanded=${whole ? "true" : "false"} onClick=${(e2) => {
      e2.stopPropagation();
      this.setState({ whole: !whole });
    }}
      >${whole ? "Show less" : `Show all ${s2.length.toLocaleString("en")} characters`}</button>`;
  }
};

// src/picker.js
var WAIT_MS = 150;
var number = (v2) => v2 === null ? "Undefined" : String(v2);
var Picker = class extends C {
  constructor() {
    super();
    this.state = { text: "", results: null, active: 0 };
    this.request = 0;
  }
  componentWillUnmount() {
    clearTimeout(this.timer);
  }
  ask(text) {
    clearTimeout(this.timer);
    this.setState({ text });
    if (!text.trim()) {
      this.setState({ results: null });
      return;
    }
    this.timer = setTimeout(async () => {
      const request = ++this.request;
      const results = await this.props.search(text);
      if (request === this.request) this.setState({ results, active: 0 });
    }, WAIT_MS);
  }
  pick(index) {
    this.setState({ results: null, text: "" });
    if (index !== this.props.p.index) this.props.send({ sample_index: index });
  }
  keys(e2) {
    const rows = this.state.results && this.state.results.rows || [];
    if (e2.key === "ArrowDown" || e2.key === "ArrowUp") {
      e2.preventDefault();
      const step = e2.key === "ArrowDown" ? 1 : -1;
      this.setState({ active: Math.max(0, Math.min(rows.length - 1, this.state.active + step)) });
    } else if (e2.key === "Enter" && rows.length) {
      e2.preventDefault();
      this.pick(rows[this.state.active].index);
    } else if (e2.key === "Escape") {
      this.setState({ results: null });
    }
  }
  render({ p: p2, send }, { text, results, active }) {
    const rows = results && results.rows || [];
    return html`<div class="rw-picker" data-testid="picker">
      <span class="rw-control-label">Sample</span>
      <button type="button" aria-label="Previous sample" data-testid="prev" disabled=${p2.index === 0}
        onClick=${() => send({ sample_index: p2.index - 1 })}>◀</button>
      <span class="rw-picker-current" data-testid="current">${(p2.index + 1).toLocaleString("en")} of ${p2.total.toLocaleString("en")}:${" "}<bdi class="rw-idtext">${showId(p2.query_id)}</bdi></span>
      <button type="button" aria-label="Next sample" data-testid="next" disabled=${p2.index === p2.total - 1}
        onClick=${() => send({ sample_index: p2.index + 1 })}>▶</button>
      <input type="search" class="rw-picker-search" data-testid="search" value=${text}
        aria-label="Search samples" placeholder="Search: words of the query or its id; faithfulness<0.5; hallucination=undefined"
        onInput=${(e2) => this.ask(e2.target.value)} onKeyDown=${(e2) => this.keys(e2)} />
      ${results ? html`<div class="rw-picker-results">
            ${results.error ? html`<p class="rw-picker-error" role="alert">${results.error}</p>` : html`<p class="rw-note" data-testid="matches">${results.matches.toLocaleString("en")} matching
                  sample${results.matches === 1 ? "" : "s"}${results.matches > rows.length ? ` (first ${rows.length} shown)` : ""}</p>`}
            <ul role="listbox" aria-label="Matching samples">
              ${rows.map((r2, k2) => html`<li key=${r2.index} role="option" aria-selected=${k2 === active ? "true" : "false"}
                  class=${k2 === active ? "rw-picker-row rw-active" : "rw-picker-row"} data-index=${r2.index}
                  onClick=${() => this.pick(r2.index)}>
                <span class="rw-num">${r2.index + 1}</span>${" "}<bdi class="rw-idtext">${showId(r2.query_id)}</bdi>${" "}<span
                  class="rw-picker-query">${r2.query}</span>${" "}<span class="rw-picker-metrics">${Object.entries(r2.metrics).map(([n3, v2]) => `${n3} ${number(v2)}`).join(" · ")}</span>
              </li>`)}
            </ul>
          </div>` : null}
    </div>`;
  }
};

// src/controls.js
var Header = memo(function Header2({ title, question, state }) {
  return html`<header class="rw-header">
    <h3 class="rw-title"><${LongText} text=${title} /></h3>
    ${question ? html`<p class="rw-question"><b>Question: </b><${LongText} text=${question} /></p>` : null}
    <p class="rw-state" data-testid="state"><b>State: </b><${LongText} text=${state} /></p>
  </header>`;
});
function Choice({ s: s2, send }) {
  const labels = s2.option_labels || s2.options;
  const valueOf = (i2) => s2.numeric ? i2 : s2.options[i2];
  const current = s2.numeric ? s2.value : s2.options.indexOf(s2.value);
  const labelId = `rw-label-${s2.trait}`;
  const label = html`<span class="rw-control-label" id=${labelId}>${s2.label}</span>`;
  if (s2.options.length > 8) {
    return html`<div class="rw-control">
      ${label}
      <select aria-labelledby=${labelId} data-trait=${s2.trait} value=${String(current)}
        onChange=${(e2) => send({ [s2.trait]: valueOf(Number(e2.target.value)) })}>
        ${labels.map((text, i2) => html`<option key=${i2} value=${String(i2)}>${text}</option>`)}
      </select>
    </div>`;
  }
  return html`<div class="rw-control" role="radiogroup" aria-labelledby=${labelId} data-trait=${s2.trait}>
    ${label}
    ${labels.map(
    (text, i2) => html`<button key=${s2.options[i2]} type="button" role="radio"
        class=${i2 === current ? "rw-option rw-active" : "rw-option"}
        aria-checked=${i2 === current ? "true" : "false"} data-option=${s2.options[i2]}
        onClick=${() => send({ [s2.trait]: valueOf(i2) })}>${text}</button>`
  )}
  </div>`;
}
function TopK({ t: t3, ids: ids2, inPlay, send }) {
  const commit = (e2) => {
    const k2 = Math.round(Number(e2.target.value));
    if (e2.target.value === "" || !Number.isFinite(k2)) return;
    const clamped = Math.max(0, Math.min(t3.max, k2));
    if (clamped !== t3.value) send({ retrieved: ids2.slice(0, clamped) });
  };
  return html`<div class="rw-control" data-trait="top_k">
    <label class="rw-control-label" for="rw-top-k">Top k passages</label>
    <input type="range" min="0" max=${String(t3.max)} value=${String(t3.value ?? inPlay)}
      aria-label="Top k passages (slider)" data-testid="top-k-range" onChange=${commit} />
    <input type="number" id="rw-top-k" class="rw-top-k" min="0" max=${String(t3.max)}
      value=${t3.value === null ? "" : String(t3.value)} placeholder="custom" data-testid="top-k"
      onChange=${commit} />
    <span class="rw-top-k-note">${t3.value === null ? `custom set of ${inPlay}` : `of ${t3.max}`}</span>
  </div>`;
}
var Controls = memo(function Controls2({ c: c2, predict, ids: ids2, inPlay, send, search }) {
  return html`<section class="rw-controls" data-testid="controls">
    ${c2.picker && search ? html`<${Picker} p=${c2.picker} send=${send} search=${search} />` : null}
    ${c2.selects.map((s2) => html`<${Choice} key=${s2.trait} s=${s2} send=${send} />`)}
    ${c2.top_k ? html`<${TopK} t=${c2.top_k} ids=${ids2} inPlay=${inPlay} send=${send} />` : null}
    <div class="rw-presets" role="group" aria-label="Presets">
      <span class="rw-control-label">Presets</span>
      ${c2.presets.map(
    (p2) => html`<button key=${p2.name} type="button" class=${p2.active ? "rw-preset rw-active" : "rw-preset"}
          title=${p2.note} aria-pressed=${p2.active ? "true" : "false"} data-preset=${p2.name}
          onClick=${() => send(p2.set)}>${p2.name}</button>`
  )}
    </div>
    <div class="rw-tools">
      <button type="button" class="rw-reset" data-testid="reset" onClick=${() => send(c2.reset)}>↺ Reset</button>
      <label class="rw-predict-toggle">
        <input type="checkbox" checked=${predict} data-testid="predict"
          onChange=${(e2) => send({ predict: e2.target.checked })} /> Predict before reveal
      </label>
      ${c2.edited ? html`<span class="rw-edited">Passages edited: ${c2.edited}</span>` : null}
    </div>
  </section>`;
});

// src/failing.js
var SHOWN = 12;
var KINDS = [
  ["hallucinated", "Incorrect, and no retrieved passage entails it (hallucination)", (c2) => c2.correct === false && !c2.faithful],
  ["misled", "Incorrect, yet a retrieved passage entails it (noise sensitivity)", (c2) => c2.correct === false && c2.faithful],
  ["unsupported", "Correct, but no retrieved passage entails it (self-knowledge)", (c2) => c2.correct === true && !c2.faithful],
  ["unfaithful", "No retrieved passage entails it", (c2) => c2.correct === null && !c2.faithful],
  ["contradicted", "⊗ Contradicted by the ground-truth answer (not merely absent from it)", (c2) => c2.contradicted],
  ["bad-citation", "Cites a source that is not retrieved or does not entail it", (c2) => (c2.citations || []).some((x2) => !x2.valid)]
];
function Chips({ items, selected, send }) {
  return html`${items.slice(0, SHOWN).map(
    (x2) => html`<button key=${x2.key} type="button" class=${selected === x2.key ? "rw-chip rw-active" : "rw-chip"}
      title=${x2.text} onClick=${() => send({ selected: selected === x2.key ? "" : x2.key })}>${showId(x2.id)}</button>`
  )}${items.length > SHOWN ? html`<span class="rw-more-count"> + ${items.length - SHOWN} more (in the table below)</span>` : null}`;
}
var Failing = memo(function Failing2({ claims, gtClaims, selected, send }) {
  const rows = KINDS.map(([name, why, test]) => [name, why, claims.filter(test)]).filter(([, , items]) => items.length);
  const missed = gtClaims.filter((g2) => g2.covered === false);
  const fine = !rows.length && !missed.length;
  return html`<section class="rw-section rw-failing" data-testid="failing">
    <h4>Which claims fail, and why</h4>
    ${fine ? html`<p class="rw-note">No claim fails: every claim is correct where that is known and entailed by a retrieved passage.</p>` : null}
    <ul class="rw-failing-list">
      ${rows.map(([name, why, items]) => html`<li key=${name} data-kind=${name}>
        <span class="rw-failing-why"><b>${items.length}</b> ${why}:</span> <${Chips} items=${items} selected=${selected} send=${send} />
      </li>`)}
      ${missed.length ? html`<li data-kind="missed"><span class="rw-failing-why"><b>${missed.length}</b> ground-truth claims the response does not cover:</span>
            <${Chips} items=${missed} selected=${selected} send=${send} /></li>` : null}
    </ul>
  </section>`;
});

// src/matrix.js
var CELL = {
  1: ["●", "entails", "rw-entails"],
  0: ["·", "does not mention", "rw-neutral"],
  2: ["⊗", "contradicts", "rw-contradicts"],
  [-1]: ["?", "unjudged", "rw-unjudged"]
};
var ON_DEMAND = 600;
function matrixCells(cells) {
  if (cells instanceof Int8Array) return cells;
  if (ArrayBuffer.isView(cells)) return new Int8Array(cells.buffer, cells.byteOffset, cells.byteLength);
  if (cells instanceof ArrayBuffer) return new Int8Array(cells);
  return Int8Array.from(cells || []);
}
var MatrixRow = memo(function MatrixRow2({ r: r2, buf, index, doc_ids, selected, ctx }) {
  const cells = matrixCells(buf).subarray(index * doc_ids.length, (index + 1) * doc_ids.length);
  return html`<tr class=${selected ? "rw-row rw-role-selected" : "rw-row"} data-row=${r2.key}
      onClick=${() => ctx.send({ selected: selected ? "" : r2.key })}>
    <th class="rw-id" scope="row" title=${r2.text}>${r2.id}</th>
    ${Array.from(cells, (v2, k2) => {
    const [sym, word, cls] = CELL[v2];
    return html`<td class=${cls} title=${`${showId(doc_ids[k2])} ${word} ${r2.id}`}>${sym}</td>`;
  })}
  </tr>`;
});
function Grid({ caption, rows, first, m: m2, docIds, selected, ctx }) {
  return html`<table class="rw-table rw-matrix">
    <caption>${caption}</caption>
    <colgroup><col />${m2.columns.map((c2) => html`<col class=${c2.active ? null : "rw-off"} />`)}</colgroup>
    <thead><tr>
      <th class="rw-corner">Claim</th>
      ${m2.columns.map((c2, k2) => html`<th class="rw-matrix-col" scope="col"
        title=${`${showId(c2.doc_id)} (rank ${k2 + 1})${c2.active ? "" : ": switched off"}`}>${k2 + 1}${c2.active ? "" : html`<span class="rw-off-mark">off</span>`}</th>`)}
    </tr></thead>
    <tbody>
      ${rows.map((r2, j2) => html`<${MatrixRow} key=${r2.key} r=${r2} buf=${m2.cells} index=${first + j2} doc_ids=${docIds}
        selected=${selected === r2.key} ctx=${ctx} />`)}
    </tbody>
  </table>`;
}
var Matrix = class extends C {
  constructor(props) {
    super(props);
    const m2 = props.m;
    this.state = { open: (m2.response.length + m2.gt.length) * m2.columns.length <= ON_DEMAND };
  }
  render({ m: m2, selected, ctx }, { open }) {
    const docIds = m2.columns.map((c2) => c2.doc_id);
    const cells = matrixCells(m2.cells);
    const entailed = cells.reduce((n3, v2) => n3 + (v2 === 1), 0);
    const contradicted = cells.reduce((n3, v2) => n3 + (v2 === 2), 0);
    const size = `${m2.response.length} response + ${m2.gt.length} ground-truth claims × ${m2.columns.length} passages`;
    return html`<section class="rw-section" data-testid="matrix">
      <h4>Entailment: claims × passages</h4>
      <p class="rw-note">${size}; ${entailed} entailments, ${contradicted} contradictions. Columns are passages
        by rank (hover for the doc_id). Symbols: ● entails; ⊗ contradicts; · does not mention; ? unjudged;
        shaded columns are switched off.</p>
      ${open ? html`<div class="rw-matrix-wrap" tabindex="0" role="region" aria-label="Entailment matrix">
            <${Grid} caption="Response claims" rows=${m2.response} first=${0} m=${m2} docIds=${docIds} selected=${selected} ctx=${ctx} />
            ${m2.gt.length ? html`<${Grid} caption="Ground-truth claims" rows=${m2.gt} first=${m2.response.length} m=${m2} docIds=${docIds} selected=${selected} ctx=${ctx} />` : null}
          </div>` : html`<button type="button" class="rw-show-matrix" data-testid="show-matrix"
            onClick=${() => this.setState({ open: true })}>Show the full matrix</button>`}
    </section>`;
  }
};

// src/tables.js
var ROLE_TEXT = {
  selected: "● selected",
  supports: "supports it",
  cited: "cited by it",
  entailed: "entailed by it",
  cites: "cites it",
  contradicts: "⊗ contradicts it",
  contradicted: "⊗ contradicted by it"
};
function IdCell({ id, roles }) {
  return html`<td class="rw-id">
    <${Id} id=${id} max=${24} />
    ${roles.length ? html`<div class="rw-link">${roles.map((r2) => html`<span class=${`rw-badge rw-badge-${r2}`}>${ROLE_TEXT[r2] || r2}</span>`)}</div>` : null}
  </td>`;
}
function rowKeys(e2, pick) {
  if (e2.target !== e2.currentTarget || e2.shiftKey || e2.ctrlKey || e2.metaKey || e2.altKey) return;
  if (e2.key === "Enter" || e2.key === " ") {
    e2.preventDefault();
    pick();
  } else if (e2.key === "ArrowDown" || e2.key === "ArrowUp") {
    const next = e2.key === "ArrowDown" ? e2.currentTarget.nextElementSibling : e2.currentTarget.previousElementSibling;
    if (next) {
      e2.preventDefault();
      next.focus();
    }
  }
}
function Row({ item, selected, send, children }) {
  const pick = () => send({ selected: selected ? "" : item.key });
  const cls = ["rw-row", ...item.roles.map((r2) => `rw-role-${r2}`)].join(" ");
  return html`<tr class=${cls} tabindex="0" aria-selected=${selected ? "true" : "false"} data-key=${item.key}
    onClick=${pick} onKeyDown=${(e2) => rowKeys(e2, pick)}>${children}</tr>`;
}
var WIDTHS = {
  Rank: 3.2,
  Source: 7,
  "In context?": 6.5,
  "Question-relevant?": 8,
  "Entails claims": 8,
  "Cited by": 5,
  "Fact IDs": 5.5,
  Claim: 4.5,
  "Fact ID": 4.5,
  "Correct?": 7,
  "Faithful?": 7.8,
  "Supported by": 6.5,
  "Retrieved?": 5.5,
  "Entails?": 5,
  "Valid?": 4.5,
  "In the response?": 7,
  "Supported by (retrieved)": 8
};
function Table({ heads, groupRow, cls, n: n3, children, label }) {
  const tall = n3 > 12;
  return html`<div class=${tall ? "rw-table-wrap rw-scroll" : "rw-table-wrap"} tabindex=${tall ? "0" : null}
      role=${tall ? "region" : null} aria-label=${tall ? label : null}>
    <table class=${`rw-table ${cls}${tall ? " rw-fixed" : ""}`}>
      ${tall ? html`<colgroup>${heads.map((t3) => html`<col style=${WIDTHS[t3] ? `width: ${WIDTHS[t3]}em` : null} />`)}</colgroup>` : null}
      <thead>
        ${groupRow ? html`<tr class="rw-group-row">${groupRow.map((g2) => html`<th colspan=${String(g2.span)} class=${g2.class || null}>${g2.text}</th>`)}</tr>` : null}
        <tr>${heads.map((t3) => html`<th scope="col">${t3}</th>`)}</tr>
      </thead>
      <tbody>${children}</tbody>
    </table>
  </div>`;
}
var SourceRow = memo(function SourceRow2({ s: s2, selected, sample, cites, showGt, ctx }) {
  const toggle = (e2) => {
    const inPlay = ctx.view().sources.filter((x2) => x2.retrieved).map((x2) => x2.doc_id);
    const next = e2.target.checked ? [...inPlay, s2.doc_id] : inPlay.filter((d2) => d2 !== s2.doc_id);
    ctx.send({ retrieved: next });
  };
  const entails = [
    s2.entails_response.length ? ids(s2.entails_response) : "",
    showGt && s2.entails_gt.length ? `${s2.entails_response.length ? "; " : ""}ground truth ${ids(s2.entails_gt)}` : ""
  ].join("") || "—";
  return html`<${Row} item=${s2} selected=${selected} send=${ctx.send}>
    <td class="rw-num">${s2.rank === null ? "—" : String(s2.rank)}</td>
    <${IdCell} id=${s2.doc_id} roles=${s2.roles} />
    <td class="rw-text"><${LongText} text=${s2.text} clamp=${true} /></td>
    ${sample ? null : html`<td>${ids(s2.facts)}</td>`}
    <td class="rw-toggle-cell">
      <label onClick=${(e2) => e2.stopPropagation()}>
        <input type="checkbox" checked=${s2.retrieved} disabled=${!s2.toggleable}
          aria-label=${`${s2.doc_id} in the retrieved context`} data-toggle=${s2.doc_id} onChange=${toggle} />
        ${s2.retrieved ? " ✓ Yes" : " ✗ No"}
      </label>
    </td>
    ${sample ? null : html`<td><${YesNo} value=${s2.relevant} />${s2.outdated ? html`<span class="rw-outdated"> (⚠ outdated)</span>` : null}</td>`}
    <td class="rw-list">${entails}${against([...s2.contradicts_response, ...showGt ? s2.contradicts_gt : []], "contradicts")}</td>
    ${cites ? html`<td class="rw-list">${ids(s2.cited_by)}</td>` : null}
  <//>`;
});
function SourceTable({ view, ctx, showGt }) {
  const sample = view.kind === "sample";
  const cites = view.has_citations;
  const heads = [
    "Rank",
    "Source",
    sample ? "Passage text" : "Exact text",
    sample ? null : "Fact IDs",
    "In context?",
    sample ? null : "Question-relevant?",
    "Entails claims",
    cites ? "Cited by" : null
  ].filter(Boolean);
  return html`<section class="rw-section" data-testid="sources">
    <h4>${sample ? `Retrieved passages (${view.sources.length}, rank order; untick to see the scores without one)` : "Sources"}</h4>
    <${Table} heads=${heads} cls="rw-sources" n=${view.sources.length} label="Passages">
      ${view.sources.map((s2) => html`<${SourceRow} key=${s2.key} s=${s2} selected=${view.selected === s2.key} sample=${sample} cites=${cites} showGt=${showGt} ctx=${ctx} />`)}
    <//>
  </section>`;
}
function against(items, words) {
  return items && items.length ? html`<div class="rw-contradicts" title=${`${words} (judged Contradiction, not merely not mentioned)`}><span class="rw-words">⊗ ${words}</span> ${ids(items)}</div>` : null;
}
function Verdict({ value, contradicted, words }) {
  if (contradicted) return html`<span class="rw-no rw-contradicted" title=${`${words[2]} (judged Contradiction)`}>⊗ Contradicted</span>`;
  return html`<${YesNo} value=${value} words=${words} />`;
}
var ClaimRow = memo(function ClaimRow2({ c: c2, selected, hasFacts, hasCorrect, cites, ctx }) {
  const cits = c2.citations || [];
  const per = (f2) => cits.length ? cits.map((x2, i2) => html`${i2 ? html`<br />` : null}${f2(x2)}`) : "—";
  return html`<${Row} item=${c2} selected=${selected} send=${ctx.send}>
    <${IdCell} id=${c2.id} roles=${c2.roles} />
    <td class="rw-text"><${LongText} text=${c2.text} /></td>
    ${hasFacts ? html`<td>${ids(c2.facts)}</td>` : null}
    ${hasCorrect ? html`<td><${Verdict} value=${c2.correct} contradicted=${c2.contradicted}
      words=${["Correct", "Incorrect", "the ground-truth answer contradicts it"]} /></td>` : null}
    <td><${YesNo} value=${c2.faithful} words=${["Faithful", "Unfaithful"]} /></td>
    <td class="rw-list">${ids(c2.supported_by, "none")}${against(c2.contradicted_by, "contradicted by")}</td>
    ${cites ? html`<td class="rw-list">${cits.length ? ids(cits.map((x2) => x2.doc_id)) : "no citation"}</td>` : null}
    ${cites ? html`<td>${per((x2) => html`<${YesNo} value=${x2.retrieved} />`)}</td>` : null}
    ${cites ? html`<td>${per((x2) => html`<${Verdict} value=${x2.entails} contradicted=${x2.contradicts}
      words=${["Yes", "No", `${x2.doc_id} contradicts the claim`]} />`)}</td>` : null}
    ${cites ? html`<td>${per((x2) => html`<span title=${x2.why}><${YesNo} value=${x2.valid} /></span>`)}</td>` : null}
  <//>`;
});
function ClaimTable({ view, ctx }) {
  const cites = view.has_citations;
  const hasFacts = view.claims.some((c2) => c2.facts);
  const hasCorrect = view.claims.some((c2) => c2.correct !== null);
  const heads = [
    "Claim",
    "Text",
    hasFacts ? "Fact ID" : null,
    hasCorrect ? "Correct?" : null,
    "Faithful?",
    "Supported by",
    cites ? "Source" : null,
    cites ? "Retrieved?" : null,
    cites ? "Entails?" : null,
    cites ? "Valid?" : null
  ].filter(Boolean);
  const before = heads.indexOf("Supported by");
  const groupRow = cites ? [{ text: "", span: before }, { text: "Retrieved context", span: 1 }, { text: "Cited source", span: 4, class: "rw-group-head" }] : null;
  const title = cites ? "Claims and citations" : `Response claims (${view.claims.length})`;
  return html`<section class="rw-section" data-testid="claims">
    <h4>${title}</h4>
    <${Table} heads=${heads} groupRow=${groupRow} cls="rw-claims" n=${view.claims.length} label="Claims">
      ${view.claims.map((c2) => html`<${ClaimRow} key=${c2.key} c=${c2} selected=${view.selected === c2.key}
        hasFacts=${hasFacts} hasCorrect=${hasCorrect} cites=${cites} ctx=${ctx} />`)}
    <//>
    ${view.claims.length ? null : html`<p class="rw-note">The answer makes no claims.</p>`}
  </section>`;
}
var GtRow = memo(function GtRow2({ g: g2, selected, ctx }) {
  return html`<${Row} item=${g2} selected=${selected} send=${ctx.send}>
    <${IdCell} id=${g2.id} roles=${g2.roles} />
    <td class="rw-text"><${LongText} text=${g2.text} /></td>
    <td><${Verdict} value=${g2.covered} contradicted=${g2.contradicted}
      words=${["Covered", "Missed", "the response contradicts it"]} /></td>
    <td class="rw-list">${ids(g2.supported_by, "none")}${against(g2.contradicted_by, "contradicted by")}</td>
  <//>`;
});
function GtTable({ view, ctx }) {
  return html`<section class="rw-section" data-testid="gt-claims">
    <h4>Ground-truth claims (${view.gt_claims.length})</h4>
    <${Table} heads=${["Claim", "Text", "In the response?", "Supported by (retrieved)"]} cls="rw-gt" n=${view.gt_claims.length} label="Ground-truth claims">
      ${view.gt_claims.map((g2) => html`<${GtRow} key=${g2.key} g=${g2} selected=${view.selected === g2.key} ctx=${ctx} />`)}
    <//>
  </section>`;
}
function FactsTable({ view }) {
  return html`<section class="rw-section" data-testid="facts">
    <h4>Required facts</h4>
    <${Table} heads=${["Required current fact", "Fact ID", "Present in answer?", "Stated by"]} cls="rw-facts" n=${view.facts.length} label="Required facts">
      ${view.facts.map((f2) => html`<tr key=${f2.fact_id}>
        <td class="rw-text"><${LongText} text=${f2.text || f2.fact_id} /></td>
        <td class="rw-id"><${Id} id=${f2.fact_id} /></td>
        <td><${YesNo} value=${f2.present} /></td>
        <td class="rw-list">${ids(f2.stated_by)}</td>
      </tr>`)}
    <//>
  </section>`;
}

// src/sample_view.js
function Answer({ view }) {
  return html`<section class="rw-section rw-answer">
    <p><b>Answer: </b>${view.answer ? html`<${LongText} text=${view.answer} />` : html`<i>(empty answer: no claims)</i>`}</p>
    ${view.kind === "sample" && view.gt_answer ? html`<details class="rw-gt-answer"><summary>Ground-truth answer</summary><p><${LongText} text=${view.gt_answer} /></p></details>` : null}
  </section>`;
}
function SampleView({ view, ctx }) {
  if (!view || !view.controls) return html`<div class="rw-root">Loading…</div>`;
  const toggleable = view.sources.filter((s2) => s2.toggleable).map((s2) => s2.doc_id);
  const inPlay = view.sources.filter((s2) => s2.retrieved).length;
  const gtTable = view.gt_claims.length > 0 && !view.facts.length;
  return html`<div class="rw-root" data-kind=${view.kind}>
    <${Header} title=${view.title} question=${view.question} state=${view.state} />
    <${Controls} c=${view.controls} predict=${view.predict} ids=${toggleable} inPlay=${inPlay} send=${ctx.send} search=${ctx.search} />
    <p class="rw-summary" data-testid="summary">${view.summary}</p>
    ${view.kind === "sample" ? html`<${Failing} claims=${view.claims} gtClaims=${view.gt_claims} selected=${view.selected} send=${ctx.send} />` : null}
    <${Cards} groups=${view.card_groups} missing=${view.not_computable} predict=${view.predict}
      predictions=${view.predictions || {}} send=${ctx.send} />
    <${Answer} view=${view} />
    <${SourceTable} view=${view} ctx=${ctx} showGt=${gtTable} />
    <${ClaimTable} view=${view} ctx=${ctx} />
    ${view.matrix ? html`<${Matrix} key=${view.query_id} m=${view.matrix} selected=${view.selected} ctx=${ctx} />` : null}
    ${gtTable ? html`<${GtTable} view=${view} ctx=${ctx} />` : null}
    ${view.facts.length ? html`<${FactsTable} view=${view} />` : null}
  </div>`;
}
var LIT = [
  ".rw-role-supports, .rw-role-cited, .rw-role-entailed, .rw-role-cites, .rw-role-selected",
  ".rw-role-contradicts, .rw-role-contradicted"
];
function revealLinked(el) {
  for (const region of el.querySelectorAll(".rw-scroll, .rw-matrix-wrap")) {
    const row = region.querySelector(LIT[0]) || region.querySelector(LIT[1]);
    if (!row) continue;
    const head = region.querySelector("thead");
    const top = row.getBoundingClientRect().top - region.getBoundingClientRect().top;
    const headHeight = head ? head.getBoundingClientRect().height : 0;
    if (top < headHeight || top + row.getBoundingClientRect().height > region.clientHeight) {
      region.scrollTop += top - headHeight - 4;
    }
  }
}
function keepKeys(e2) {
  const host = e2.ctrlKey || e2.metaKey || e2.altKey || e2.key === "Escape" || e2.shiftKey && e2.key === "Enter";
  if (!host) e2.stopPropagation();
}
function mountSampleView(el, { view, send, search = null }) {
  let current = null;
  const ctx = { send, search, view: () => current };
  el.addEventListener("keydown", keepKeys);
  const draw = (next) => {
    const before = current && current.selected;
    current = share(current, next);
    R(html`<${SampleView} view=${current} ctx=${ctx} />`, el);
    if (current && current.selected && current.selected !== before) revealLinked(el);
  };
  draw(view);
  return {
    update: draw,
    destroy() {
      el.removeEventListener("keydown", keepKeys);
      R(null, el);
    }
  };
}

// src/widget.js
function viewOf(model) {
  const json = model.get("_view");
  if (!json) return null;
  const view = JSON.parse(json);
  if (view.matrix) view.matrix.cells = model.get("_cells");
  return view;
}
function searcher(model) {
  let request = 0;
  const waiting = /* @__PURE__ */ new Map();
  const answer = (msg) => {
    if (msg && msg.type === "results" && waiting.has(msg.request)) {
      waiting.get(msg.request)(msg);
      waiting.delete(msg.request);
    }
  };
  model.on("msg:custom", answer);
  const search = (text) => new Promise((resolve) => {
    request += 1;
    waiting.set(request, resolve);
    model.send({ type: "search", text, request });
  });
  return { search, stop: () => model.off("msg:custom", answer) };
}
function render({ model, el }) {
  const send = (patch) => {
    for (const [name, value] of Object.entries(patch)) model.set(name, value);
    model.save_changes();
  };
  el.classList.add("rw-widget");
  const { search, stop } = searcher(model);
  const sv = mountSampleView(el, { view: viewOf(model), send, search });
  const redraw = () => sv.update(viewOf(model));
  model.on("change:_view", redraw);
  return () => {
    model.off("change:_view", redraw);
    stop();
    sv.destroy();
  };
}
var widget_default = { render };
export {
  widget_default as default,
  viewOf
};
