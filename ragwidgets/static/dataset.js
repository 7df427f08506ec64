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
function m(n4, l3) {
  for (var u3 in l3) n4[u3] = l3[u3];
  return n4;
}
function b(n4) {
  n4 && n4.parentNode && n4.parentNode.removeChild(n4);
}
function k(l3, u3, t4) {
  var i3, r3, o3, e3 = {};
  for (o3 in u3) "key" == o3 ? i3 = u3[o3] : "ref" == o3 ? r3 = u3[o3] : e3[o3] = u3[o3];
  if (arguments.length > 2 && (e3.children = arguments.length > 3 ? n.call(arguments, 2) : t4), "function" == typeof l3 && null != l3.defaultProps) for (o3 in l3.defaultProps) void 0 === e3[o3] && (e3[o3] = l3.defaultProps[o3]);
  return x(l3, e3, i3, r3, null);
}
function x(n4, t4, i3, r3, o3) {
  var e3 = { type: n4, props: t4, key: i3, ref: r3, __k: null, __: null, __b: 0, __e: null, __c: null, constructor: void 0, __v: null == o3 ? ++u : o3, __i: -1, __u: 0 };
  return null == o3 && null != l.vnode && l.vnode(e3), e3;
}
function S(n4) {
  return n4.children;
}
function C(n4, l3) {
  this.props = n4, this.context = l3;
}
function $(n4, l3) {
  if (null == l3) return n4.__ ? $(n4.__, n4.__i + 1) : null;
  for (var u3; l3 < n4.__k.length; l3++) if (null != (u3 = n4.__k[l3]) && null != u3.__e) return u3.__e;
  return "function" == typeof n4.type ? $(n4) : null;
}
function I(n4) {
  if (n4.__P && n4.__d) {
    var u3 = n4.__v, t4 = u3.__e, i3 = [], r3 = [], o3 = m({}, u3);
    o3.__v = u3.__v + 1, l.vnode && l.vnode(o3), q(n4.__P, o3, u3, n4.__n, n4.__P.namespaceURI, 32 & u3.__u ? [t4] : null, i3, null == t4 ? $(u3) : t4, !!(32 & u3.__u), r3), o3.__v = u3.__v, o3.__.__k[o3.__i] = o3, D(i3, o3, r3), u3.__e = u3.__ = null, o3.__e != t4 && P(o3);
  }
}
function P(n4) {
  if (null != (n4 = n4.__) && null != n4.__c) return n4.__e = n4.__c.base = null, n4.__k.some(function(l3) {
    if (null != l3 && null != l3.__e) return n4.__e = n4.__c.base = l3.__e;
  }), P(n4);
}
function A(n4) {
  (!n4.__d && (n4.__d = true) && i.push(n4) && !H.__r++ || r != l.debounceRendering) && ((r = l.debounceRendering) || o)(H);
}
function H() {
  try {
    for (var n4, l3 = 1; i.length; ) i.length > l3 && i.sort(e), n4 = i.shift(), l3 = i.length, I(n4);
  } finally {
    i.length = H.__r = 0;
  }
}
function L(n4, l3, u3, t4, i3, r3, o3, e3, f3, c3, a3) {
  var s3, h3, p3, v3, y3, _3, g2 = t4 && t4.__k || w, m3 = l3.length;
  for (f3 = T(u3, l3, g2, f3, m3), s3 = 0; s3 < m3; s3++) null != (p3 = u3.__k[s3]) && (h3 = -1 != p3.__i && g2[p3.__i] || d, p3.__i = s3, _3 = q(n4, p3, h3, i3, r3, o3, e3, f3, c3, a3), v3 = p3.__e, p3.ref && h3.ref != p3.ref && (h3.ref && J(h3.ref, null, p3), a3.push(p3.ref, p3.__c || v3, p3)), null == y3 && null != v3 && (y3 = v3), 4 & p3.__u ? (f3 = j(p3, f3, n4), h3.__e && (h3.__e = null)) : "function" == typeof p3.type && void 0 !== _3 ? f3 = _3 : v3 && (f3 = v3.nextSibling), p3.__u &= -7);
  return u3.__e = y3, f3;
}
function T(n4, l3, u3, t4, i3) {
  var r3, o3, e3, f3, c3, a3 = u3.length, s3 = a3, h3 = 0;
  for (n4.__k = new Array(i3), r3 = 0; r3 < i3; r3++) null != (o3 = l3[r3]) && "boolean" != typeof o3 && "function" != typeof o3 ? ("string" == typeof o3 || "number" == typeof o3 || "bigint" == typeof o3 || o3.constructor == String ? o3 = n4.__k[r3] = x(null, o3, null, null, null) : g(o3) ? o3 = n4.__k[r3] = x(S, { children: o3 }, null, null, null) : void 0 === o3.constructor && o3.__b > 0 ? o3 = n4.__k[r3] = x(o3.type, o3.props, o3.key, o3.ref ? o3.ref : null, o3.__v) : n4.__k[r3] = o3, f3 = r3 + h3, o3.__ = n4, o3.__b = n4.__b + 1, e3 = null, -1 != (c3 = o3.__i = O(o3, u3, f3, s3)) && (s3--, (e3 = u3[c3]) && (e3.__u |= 2)), null == e3 || null == e3.__v ? (-1 == c3 && (i3 > a3 ? h3-- : i3 < a3 && h3++), "function" != typeof o3.type && (o3.__u |= 4)) : c3 != f3 && (c3 == f3 - 1 ? h3-- : c3 == f3 + 1 ? h3++ : (c3 > f3 ? h3-- : h3++, o3.__u |= 4))) : n4.__k[r3] = null;
  if (s3) for (r3 = 0; r3 < a3; r3++) null != (e3 = u3[r3]) && 0 == (2 & e3.__u) && (e3.__e == t4 && (t4 = $(e3)), K(e3, e3));
  return t4;
}
function j(n4, l3, u3) {
  var t4, i3;
  if ("function" == typeof n4.type) {
    for (t4 = n4.__k, i3 = 0; t4 && i3 < t4.length; i3++) t4[i3] && (t4[i3].__ = n4, l3 = j(t4[i3], l3, u3));
    return l3;
  }
  n4.__e != l3 && (l3 && n4.type && !l3.parentNode && (l3 = $(n4)), l3 = u3.insertBefore(n4.__e, l3 || null));
  do {
    l3 = l3 && l3.nextSibling;
  } while (null != l3 && 8 == l3.nodeType);
  return l3;
}
function O(n4, l3, u3, t4) {
  var i3, r3, o3, e3 = n4.key, f3 = n4.type, c3 = l3[u3], a3 = null != c3 && 0 == (2 & c3.__u);
  if (null === c3 && null == e3 || a3 && e3 == c3.key && f3 == c3.type) return u3;
  if (t4 > (a3 ? 1 : 0)) {
    for (i3 = u3 - 1, r3 = u3 + 1; i3 >= 0 || r3 < l3.length; ) if (null != (c3 = l3[o3 = i3 >= 0 ? i3-- : r3++]) && 0 == (2 & c3.__u) && e3 == c3.key && f3 == c3.type) return o3;
  }
  return -1;
}
function z(n4, l3, u3) {
  "-" == l3[0] ? n4.setProperty(l3, null == u3 ? "" : u3) : n4[l3] = null == u3 ? "" : "number" != typeof u3 || _.test(l3) ? u3 : u3 + "px";
}
function N(n4, l3, u3, t4, i3) {
  var r3, o3;
  n: if ("style" == l3) if ("string" == typeof u3) n4.style.cssText = u3;
  else {
    if ("string" == typeof t4 && (n4.style.cssText = t4 = ""), t4) for (l3 in t4) u3 && l3 in u3 || z(n4.style, l3, "");
    if (u3) for (l3 in u3) t4 && u3[l3] == t4[l3] || z(n4.style, l3, u3[l3]);
  }
  else if ("o" == l3[0] && "n" == l3[1]) r3 = l3 != (l3 = l3.replace(s, "$1")), o3 = l3.toLowerCase(), l3 = o3 in n4 || "onFocusOut" == l3 || "onFocusIn" == l3 ? o3.slice(2) : l3.slice(2), n4.l || (n4.l = {}), n4.l[l3 + r3] = u3, u3 ? t4 ? u3[a] = t4[a] : (u3[a] = h, n4.addEventListener(l3, r3 ? v : p, r3)) : n4.removeEventListener(l3, r3 ? v : p, r3);
  else {
    if ("http://www.w3.org/2000/svg" == i3) l3 = l3.replace(/xlink(H|:h)/, "h").replace(/sName$/, "s");
    else if ("width" != l3 && "height" != l3 && "href" != l3 && "list" != l3 && "form" != l3 && "tabIndex" != l3 && "download" != l3 && "rowSpan" != l3 && "colSpan" != l3 && "role" != l3 && "popover" != l3 && l3 in n4) try {
      n4[l3] = null == u3 ? "" : u3;
      break n;
    } catch (n5) {
    }
    "function" == typeof u3 || (null == u3 || false === u3 && "-" != l3[4] ? n4.removeAttribute(l3) : n4.setAttribute(l3, "popover" == l3 && 1 == u3 ? "" : u3));
  }
}
function V(n4) {
  return function(u3) {
    if (this.l) {
      var t4 = this.l[u3.type + n4];
      if (null == u3[c]) u3[c] = h++;
      else if (u3[c] < t4[a]) return;
      return t4(l.event ? l.event(u3) : u3);
    }
  };
}
function q(n4, u3, t4, i3, r3, o3, e3, f3, c3, a3) {
  var s3, h3, p3, v3, y3, d3, _3, k3, x2, M, I2, P2, A3, H4, T3, j3, F = u3.type;
  if (void 0 !== u3.constructor) return null;
  128 & t4.__u && (c3 = !!(32 & t4.__u), o3 = [f3 = u3.__e = t4.__e]), (s3 = l.__b) && s3(u3);
  n: if ("function" == typeof F) {
    h3 = e3.length;
    try {
      if (x2 = u3.props, M = F.prototype && F.prototype.render, I2 = (s3 = F.contextType) && i3[s3.__c], P2 = s3 ? I2 ? I2.props.value : s3.__ : i3, t4.__c ? k3 = (p3 = u3.__c = t4.__c).__ = p3.__E : (M ? u3.__c = p3 = new F(x2, P2) : (u3.__c = p3 = new C(x2, P2), p3.constructor = F, p3.render = Q), I2 && I2.sub(p3), p3.state || (p3.state = {}), p3.__n = i3, v3 = p3.__d = true, p3.__h = [], p3._sb = []), M && null == p3.__s && (p3.__s = p3.state), M && null != F.getDerivedStateFromProps && (p3.__s == p3.state && (p3.__s = m({}, p3.__s)), m(p3.__s, F.getDerivedStateFromProps(x2, p3.__s))), y3 = p3.props, d3 = p3.state, p3.__v = u3, v3) M && null == F.getDerivedStateFromProps && null != p3.componentWillMount && p3.componentWillMount(), M && null != p3.componentDidMount && p3.__h.push(p3.componentDidMount);
      else {
        if (M && null == F.getDerivedStateFromProps && x2 !== y3 && null != p3.componentWillReceiveProps && p3.componentWillReceiveProps(x2, P2), u3.__v == t4.__v || !p3.__e && null != p3.shouldComponentUpdate && false === p3.shouldComponentUpdate(x2, p3.__s, P2)) {
          u3.__v != t4.__v && (p3.props = x2, p3.state = p3.__s, p3.__d = false), u3.__e = t4.__e, u3.__k = t4.__k, u3.__k.some(function(n5) {
            n5 && (n5.__ = u3);
          }), w.push.apply(p3.__h, p3._sb), p3._sb = [], p3.__h.length && e3.push(p3), f3 = $(t4);
          break n;
        }
        null != p3.componentWillUpdate && p3.componentWillUpdate(x2, p3.__s, P2), M && null != p3.componentDidUpdate && p3.__h.push(function() {
          p3.componentDidUpdate(y3, d3, _3);
        });
      }
      if (p3.context = P2, p3.props = x2, p3.__P = n4, p3.__e = false, A3 = l.__r, H4 = 0, M) p3.state = p3.__s, p3.__d = false, A3 && A3(u3), s3 = p3.render(p3.props, p3.state, p3.context), w.push.apply(p3.__h, p3._sb), p3._sb = [];
      else do {
        p3.__d = false, A3 && A3(u3), s3 = p3.render(p3.props, p3.state, p3.context), p3.state = p3.__s;
      } while (p3.__d && ++H4 < 25);
      p3.state = p3.__s, null != p3.getChildContext && (i3 = m(m({}, i3), p3.getChildContext())), M && !v3 && null != p3.getSnapshotBeforeUpdate && (_3 = p3.getSnapshotBeforeUpdate(y3, d3)), T3 = null != s3 && s3.type === S && null == s3.key ? E(s3.props.children) : s3, f3 = L(n4, g(T3) ? T3 : [T3], u3, t4, i3, r3, o3, e3, f3, c3, a3), p3.base = u3.__e, u3.__u &= -161, p3.__h.length && e3.push(p3), k3 && (p3.__E = p3.__ = null);
    } catch (n5) {
      if (e3.length = h3, u3.__v = null, c3 || null != o3) {
        if (n5.then) {
          for (u3.__u |= c3 ? 160 : 128; f3 && 8 == f3.nodeType && f3.nextSibling; ) f3 = f3.nextSibling;
          null != o3 && (o3[o3.indexOf(f3)] = null), u3.__e = f3;
        } else if (null != o3) for (j3 = o3.length; j3--; ) b(o3[j3]);
      } else u3.__e = t4.__e;
      null == u3.__k && (u3.__k = t4.__k || []), n5.then || B(u3), l.__e(n5, u3, t4);
    }
  } else null == o3 && u3.__v == t4.__v ? (u3.__k = t4.__k, u3.__e = t4.__e) : f3 = u3.__e = G(t4.__e, u3, t4, i3, r3, o3, e3, c3, a3);
  return (s3 = l.diffed) && s3(u3), 128 & u3.__u ? void 0 : f3;
}
function B(n4) {
  n4 && (n4.__c && (n4.__c.__e = true), n4.__k && n4.__k.some(B));
}
function D(n4, u3, t4) {
  for (var i3 = 0; i3 < t4.length; i3++) J(t4[i3], t4[++i3], t4[++i3]);
  l.__c && l.__c(u3, n4), n4.some(function(u4) {
    try {
      n4 = u4.__h, u4.__h = [], n4.some(function(n5) {
        n5.call(u4);
      });
    } catch (n5) {
      l.__e(n5, u4.__v);
    }
  });
}
function E(n4) {
  return "object" != typeof n4 || null == n4 || n4.__b > 0 ? n4 : g(n4) ? n4.map(E) : void 0 !== n4.constructor ? null : m({}, n4);
}
function G(u3, t4, i3, r3, o3, e3, f3, c3, a3) {
  var s3, h3, p3, v3, y3, w3, _3, m3 = i3.props || d, k3 = t4.props, x2 = t4.type;
  if ("svg" == x2 ? o3 = "http://www.w3.org/2000/svg" : "math" == x2 ? o3 = "http://www.w3.org/1998/Math/MathML" : o3 || (o3 = "http://www.w3.org/1999/xhtml"), null != e3) {
    for (s3 = 0; s3 < e3.length; s3++) if ((y3 = e3[s3]) && "setAttribute" in y3 == !!x2 && (x2 ? y3.localName == x2 : 3 == y3.nodeType)) {
      u3 = y3, e3[s3] = null;
      break;
    }
  }
  if (null == u3) {
    if (null == x2) return document.createTextNode(k3);
    u3 = document.createElementNS(o3, x2, k3.is && k3), c3 && (l.__m && l.__m(t4, e3), c3 = false), e3 = null;
  }
  if (null == x2) m3 === k3 || c3 && u3.data == k3 || (u3.data = k3);
  else {
    if (e3 = "textarea" == x2 && null != k3.defaultValue ? null : e3 && n.call(u3.childNodes), !c3 && null != e3) for (m3 = {}, s3 = 0; s3 < u3.attributes.length; s3++) m3[(y3 = u3.attributes[s3]).name] = y3.value;
    for (s3 in m3) y3 = m3[s3], "dangerouslySetInnerHTML" == s3 ? p3 = y3 : "children" == s3 || s3 in k3 || "value" == s3 && "defaultValue" in k3 || "checked" == s3 && "defaultChecked" in k3 || N(u3, s3, null, y3, o3);
    for (s3 in k3) y3 = k3[s3], "children" == s3 ? v3 = y3 : "dangerouslySetInnerHTML" == s3 ? h3 = y3 : "value" == s3 ? w3 = y3 : "checked" == s3 ? _3 = y3 : c3 && "function" != typeof y3 || m3[s3] === y3 || N(u3, s3, y3, m3[s3], o3);
    if (h3) c3 || p3 && (h3.__html == p3.__html || h3.__html == u3.innerHTML) || (u3.innerHTML = h3.__html), t4.__k = [];
    else if (p3 && (u3.innerHTML = ""), L("template" == t4.type ? u3.content : u3, g(v3) ? v3 : [v3], t4, i3, r3, "foreignObject" == x2 ? "http://www.w3.org/1999/xhtml" : o3, e3, f3, e3 ? e3[0] : i3.__k && $(i3, 0), c3, a3), null != e3) for (s3 = e3.length; s3--; ) b(e3[s3]);
    c3 && "textarea" != x2 || (s3 = "value", "progress" == x2 && null == w3 ? u3.removeAttribute("value") : null != w3 && (w3 !== u3[s3] || "progress" == x2 && !w3 || "option" == x2 && w3 != m3[s3]) && N(u3, s3, w3, m3[s3], o3), s3 = "checked", null != _3 && _3 != u3[s3] && N(u3, s3, _3, m3[s3], o3));
  }
  return u3;
}
function J(n4, u3, t4) {
  try {
    if ("function" == typeof n4) {
      var i3 = "function" == typeof n4.__u;
      i3 && n4.__u(), i3 && null == u3 || (n4.__u = n4(u3));
    } else n4.current = u3;
  } catch (n5) {
    l.__e(n5, t4);
  }
}
function K(n4, u3, t4) {
  var i3, r3;
  if (l.unmount && l.unmount(n4), (i3 = n4.ref) && (i3.current && i3.current != n4.__e || J(i3, null, u3)), null != (i3 = n4.__c)) {
    if (i3.componentWillUnmount) try {
      i3.componentWillUnmount();
    } catch (n5) {
      l.__e(n5, u3);
    }
    i3.base = i3.__P = i3.__n = null;
  }
  if (i3 = n4.__k) for (r3 = 0; r3 < i3.length; r3++) i3[r3] && K(i3[r3], u3, t4 || "function" != typeof n4.type);
  t4 || b(n4.__e), n4.__c = n4.__ = n4.__e = void 0;
}
function Q(n4, l3, u3) {
  return this.constructor(n4, u3);
}
function R(u3, t4, i3) {
  var r3, o3, e3, f3;
  t4 == document && (t4 = document.documentElement), l.__ && l.__(u3, t4), o3 = (r3 = "function" == typeof i3) ? null : i3 && i3.__k || t4.__k, e3 = [], f3 = [], q(t4, u3 = (!r3 && i3 || t4).__k = k(S, null, [u3]), o3 || d, d, t4.namespaceURI, !r3 && i3 ? [i3] : o3 ? null : t4.firstChild ? n.call(t4.childNodes) : null, e3, !r3 && i3 ? i3 : o3 ? o3.__e : t4.firstChild, r3, f3), D(e3, u3, f3), u3.props.children = null;
}
n = w.slice, l = { __e: function(n4, l3, u3, t4) {
  for (var i3, r3, o3; l3 = l3.__; ) if ((i3 = l3.__c) && !i3.__) try {
    if ((r3 = i3.constructor) && null != r3.getDerivedStateFromError && (i3.setState(r3.getDerivedStateFromError(n4)), o3 = i3.__d), null != i3.componentDidCatch && (i3.componentDidCatch(n4, t4 || {}), o3 = i3.__d), o3) return i3.__E = i3;
  } catch (l4) {
    n4 = l4;
  }
  throw n4;
} }, u = 0, t = function(n4) {
  return null != n4 && void 0 === n4.constructor;
}, C.prototype.setState = function(n4, l3) {
  var u3;
  u3 = null != this.__s && this.__s != this.state ? this.__s : this.__s = m({}, this.state), "function" == typeof n4 && (n4 = n4(m({}, u3), this.props)), n4 && m(u3, n4), null != n4 && this.__v && (l3 && this._sb.push(l3), A(this));
}, C.prototype.forceUpdate = function(n4) {
  this.__v && (this.__e = true, n4 && this.__h.push(n4), A(this));
}, C.prototype.render = S, i = [], o = "function" == typeof Promise ? Promise.prototype.then.bind(Promise.resolve()) : setTimeout, e = function(n4, l3) {
  return n4.__v.__b - l3.__v.__b;
}, H.__r = 0, f = Math.random().toString(8), c = "__d" + f, a = "__a" + f, s = /(PointerCapture)$|Capture$/i, h = 0, p = V(false), v = V(true), y = 0;

// node_modules/preact/hooks/dist/hooks.module.js
var t2;
var r2;
var u2;
var i2;
var o2 = 0;
var f2 = [];
var c2 = l;
var e2 = c2.__b;
var a2 = c2.__r;
var v2 = c2.diffed;
var l2 = c2.__c;
var m2 = c2.unmount;
var p2 = c2.__;
function s2(n4, t4) {
  c2.__h && c2.__h(r2, n4, o2 || t4), o2 = 0;
  var u3 = r2.__H || (r2.__H = { __: [], __h: [] });
  return n4 >= u3.__.length && u3.__.push({}), u3.__[n4];
}
function d2(n4) {
  return o2 = 1, y2(D2, n4);
}
function y2(n4, u3, i3) {
  var o3 = s2(t2++, 2);
  if (o3.t = n4, !o3.__c && (o3.__ = [i3 ? i3(u3) : D2(void 0, u3), function(n5) {
    var t4 = o3.__N ? o3.__N[0] : o3.__[0], r3 = o3.t(t4, n5);
    t4 !== r3 && (o3.__N = [r3, o3.__[1]], o3.__c.setState({}));
  }], o3.__c = r2, !r2.__f)) {
    var f3 = function(n5, t4, r3) {
      if (!o3.__c.__H) return true;
      var u4 = false, i4 = o3.__c.props !== n5;
      if (o3.__c.__H.__.some(function(n6) {
        if (n6.__N) {
          u4 = true;
          var t5 = n6.__[0];
          n6.__ = n6.__N, n6.__N = void 0, t5 !== n6.__[0] && (i4 = true);
        }
      }), c3) {
        var f4 = c3.call(this, n5, t4, r3);
        return u4 ? f4 || i4 : f4;
      }
      return !u4 || i4;
    };
    r2.__f = true;
    var c3 = r2.shouldComponentUpdate, e3 = r2.componentWillUpdate;
    r2.componentWillUpdate = function(n5, t4, r3) {
      if (this.__e) {
        var u4 = c3;
        c3 = void 0, f3(n5, t4, r3), c3 = u4;
      }
      e3 && e3.call(this, n5, t4, r3);
    }, r2.shouldComponentUpdate = f3;
  }
  return o3.__N || o3.__;
}
function h2(n4, u3) {
  var i3 = s2(t2++, 3);
  !c2.__s && C2(i3.__H, u3) && (i3.__ = n4, i3.u = u3, r2.__H.__h.push(i3));
}
function _2(n4, u3) {
  var i3 = s2(t2++, 4);
  !c2.__s && C2(i3.__H, u3) && (i3.__ = n4, i3.u = u3, r2.__h.push(i3));
}
function A2(n4) {
  return o2 = 5, T2(function() {
    return { current: n4 };
  }, []);
}
function T2(n4, r3) {
  var u3 = s2(t2++, 7);
  return C2(u3.__H, r3) && (u3.__ = n4(), u3.__H = r3, u3.__h = n4), u3.__;
}
function q2(n4, t4) {
  return o2 = 8, T2(function() {
    return n4;
  }, t4);
}
function j2() {
  for (var n4; n4 = f2.shift(); ) {
    var t4 = n4.__H;
    if (n4.__P && t4) try {
      t4.__h.some(z2), t4.__h.some(B2), t4.__h = [];
    } catch (r3) {
      t4.__h = [], c2.__e(r3, n4.__v);
    }
  }
}
c2.__b = function(n4) {
  r2 = null, e2 && e2(n4);
}, c2.__ = function(n4, t4) {
  n4 && t4.__k && t4.__k.__m && (n4.__m = t4.__k.__m), p2 && p2(n4, t4);
}, c2.__r = function(n4) {
  a2 && a2(n4), t2 = 0;
  var i3 = (r2 = n4.__c).__H;
  i3 && (u2 === r2 ? (i3.__h = [], r2.__h = [], i3.__.some(function(n5) {
    n5.__N && (n5.__ = n5.__N), n5.u = n5.__N = void 0;
  })) : (i3.__h.some(z2), i3.__h.some(B2), i3.__h = [], t2 = 0)), u2 = r2;
}, c2.diffed = function(n4) {
  v2 && v2(n4);
  var t4 = n4.__c;
  t4 && t4.__H && (t4.__H.__h.length && (1 !== f2.push(t4) && i2 === c2.requestAnimationFrame || ((i2 = c2.requestAnimationFrame) || w2)(j2)), t4.__H.__.some(function(n5) {
    n5.u && (n5.__H = n5.u, n5.u = void 0);
  })), u2 = r2 = null;
}, c2.__c = function(n4, t4) {
  t4.some(function(n5) {
    try {
      n5.__h.some(z2), n5.__h = n5.__h.filter(function(n6) {
        return !n6.__ || B2(n6);
      });
    } catch (r3) {
      t4.some(function(n6) {
        n6.__h && (n6.__h = []);
      }), t4 = [], c2.__e(r3, n5.__v);
    }
  }), l2 && l2(n4, t4);
}, c2.unmount = function(n4) {
  m2 && m2(n4);
  var t4, r3 = n4.__c;
  r3 && r3.__H && (r3.__H.__.some(function(n5) {
    try {
      z2(n5);
    } catch (n6) {
      t4 = n6;
    }
  }), r3.__H = void 0, t4 && c2.__e(t4, r3.__v));
};
var k2 = "function" == typeof requestAnimationFrame;
function w2(n4) {
  var t4, r3 = function() {
    clearTimeout(u3), k2 && cancelAnimationFrame(t4), setTimeout(n4);
  }, u3 = setTimeout(r3, 35);
  k2 && (t4 = requestAnimationFrame(r3));
}
function z2(n4) {
  var t4 = r2, u3 = n4.__c;
  "function" == typeof u3 && (n4.__c = void 0, u3()), r2 = t4;
}
function B2(n4) {
  var t4 = r2;
  n4.__c = n4.__(), r2 = t4;
}
function C2(n4, t4) {
  return !n4 || n4.length !== t4.length || t4.some(function(t5, r3) {
    return t5 !== n4[r3];
  });
}
function D2(n4, t4) {
  return "function" == typeof t4 ? t4(n4) : t4;
}

// node_modules/htm/dist/htm.module.js
var n2 = function(t4, s3, r3, e3) {
  var u3;
  s3[0] = 0;
  for (var h3 = 1; h3 < s3.length; h3++) {
    var p3 = s3[h3++], a3 = s3[h3] ? (s3[0] |= p3 ? 1 : 2, r3[s3[h3++]]) : s3[++h3];
    3 === p3 ? e3[0] = a3 : 4 === p3 ? e3[1] = Object.assign(e3[1] || {}, a3) : 5 === p3 ? (e3[1] = e3[1] || {})[s3[++h3]] = a3 : 6 === p3 ? e3[1][s3[++h3]] += a3 + "" : p3 ? (u3 = t4.apply(a3, n2(t4, a3, r3, ["", null])), e3.push(u3), a3[0] ? s3[0] |= 2 : (s3[h3 - 2] = 0, s3[h3] = u3)) : e3.push(a3);
  }
  return e3;
};
var t3 = /* @__PURE__ */ new Map();
function htm_module_default(s3) {
  var r3 = t3.get(this);
  return r3 || (r3 = /* @__PURE__ */ new Map(), t3.set(this, r3)), (r3 = n2(this, r3.get(s3) || (r3.set(s3, r3 = (function(n4) {
    for (var t4, s4, r4 = 1, e3 = "", u3 = "", h3 = [0], p3 = function(n5) {
      1 === r4 && (n5 || (e3 = e3.replace(/^\s*\n\s*|\s*\n\s*$/g, ""))) ? h3.push(0, n5, e3) : 3 === r4 && (n5 || e3) ? (h3.push(3, n5, e3), r4 = 2) : 2 === r4 && "..." === e3 && n5 ? h3.push(4, n5, 0) : 2 === r4 && e3 && !n5 ? h3.push(5, 0, true, e3) : r4 >= 5 && ((e3 || !n5 && 5 === r4) && (h3.push(r4, 0, e3, s4), r4 = 6), n5 && (h3.push(r4, n5, 0, s4), r4 = 6)), e3 = "";
    }, a3 = 0; a3 < n4.length; a3++) {
      a3 && (1 === r4 && p3(), p3(a3));
      for (var l3 = 0; l3 < n4[a3].length; l3++) t4 = n4[a3][l3], 1 === r4 ? "<" === t4 ? (p3(), h3 = [h3], r4 = 3) : e3 += t4 : 4 === r4 ? "--" === e3 && ">" === t4 ? (r4 = 1, e3 = "") : e3 = t4 + e3[0] : u3 ? t4 === u3 ? u3 = "" : e3 += t4 : '"' === t4 || "'" === t4 ? u3 = t4 : ">" === t4 ? (p3(), r4 = 1) : r4 && ("=" === t4 ? (r4 = 5, s4 = e3, e3 = "") : "/" === t4 && (r4 < 5 || ">" === n4[a3][l3 + 1]) ? (p3(), 3 === r4 && (h3 = h3[0]), r4 = h3, (h3 = h3[0]).push(2, 0, r4), r4 = 0) : " " === t4 || "	" === t4 || "\n" === t4 || "\r" === t4 ? (p3(), r4 = 2) : e3 += t4), 3 === r4 && "!--" === e3 && (r4 = 4, h3 = h3[0]);
    }
    return p3(), h3;
  })(s3)), r3), arguments, [])).length > 1 ? r3 : r3[0];
}

// src/incremental.js
var html = htm_module_default.bind(k);
function sameBytes(a3, b2) {
  if (a3.byteLength !== b2.byteLength) return false;
  const x2 = new Uint8Array(a3.buffer, a3.byteOffset, a3.byteLength);
  const y3 = new Uint8Array(b2.buffer, b2.byteOffset, b2.byteLength);
  for (let i3 = 0; i3 < x2.length; i3++) if (x2[i3] !== y3[i3]) return false;
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
    let same3 = prev.length === next.length;
    const out2 = next.map((x2, i3) => {
      const y3 = share(prev[i3], x2);
      if (y3 !== prev[i3]) same3 = false;
      return y3;
    });
    return same3 ? prev : out2;
  }
  const keys = Object.keys(next);
  let same2 = keys.length === Object.keys(prev).length;
  const out = {};
  for (const k3 of keys) {
    out[k3] = share(prev[k3], next[k3]);
    if (out[k3] !== prev[k3]) same2 = false;
  }
  return same2 ? prev : out;
}
function shallowEqual(a3, b2) {
  const ka = Object.keys(a3);
  if (ka.length !== Object.keys(b2).length) return false;
  return ka.every((k3) => Object.is(a3[k3], b2[k3]));
}
function unchangedProps(next) {
  return !shallowEqual(this.props, next);
}
function memo(render2) {
  function Memo(props) {
    this.shouldComponentUpdate = unchangedProps;
    return render2(props);
  }
  Memo.displayName = `memo(${render2.name})`;
  return Memo;
}

// src/text.js
var BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
var codePoint = (c3) => `⟨U+${c3.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")}⟩`;
function showId(id) {
  return String(id).replace(BIDI, codePoint);
}
function Id({ id, max = 40 }) {
  const shown = showId(id);
  if (shown.length <= max) return html`<bdi class="rw-idtext">${shown}</bdi>`;
  return html`<bdi class="rw-idtext rw-cut" title=${shown}>${shown.slice(0, max - 1)}…</bdi>`;
}
function IdLink({ id, target, send, label = null, max = 24 }) {
  return html`<button type="button" class="rw-idlink" data-select=${target} title=${`Select ${showId(id)}`}
    onClick=${(e3) => {
    e3.stopPropagation();
    send({ selected: target });
  }}>${label === null ? html`<${Id} id=${id} max=${max} />` : label}</button>`;
}
function idLinks(items, prefix, send, empty = "—", more = null) {
  if (!items || !items.length) return empty;
  const cut = more && items.length > more.n + 1 ? more.n : items.length;
  const links = items.slice(0, cut).map((id, i3) => html`${i3 ? ", " : ""}<${IdLink} key=${id} id=${id} target=${`${prefix}:${id}`} send=${send} max=${16} />`);
  if (cut === items.length) return links;
  return html`${links}, <button type="button" class="rw-idlink rw-idlink-more" data-select=${more.target}
    title=${items.map(showId).join(", ")} onClick=${(e3) => {
    e3.stopPropagation();
    send({ selected: more.target });
  }}>+ ${items.length - cut} more</button>`;
}
function YesNo({ value, words: words2 = ["Yes", "No"] }) {
  if (value === null || value === void 0) return html`<span class="rw-unknown">? unknown</span>`;
  const yes = value === true || value === "yes";
  return html`<span class=${yes ? "rw-yes" : "rw-no"}>${yes ? `✓ ${words2[0]}` : `✗ ${words2[1]}`}</span>`;
}
var LONG = 300;
function LongText({ text, clamp = false }) {
  const [whole, setWhole] = d2(false);
  const s3 = String(text);
  const long = s3.length > LONG;
  const shown = long && !whole ? `${s3.slice(0, LONG)}…` : s3;
  const body = clamp && !whole ? html`<span class="rw-clamp">${shown}</span>` : shown;
  if (!long) return body;
  return html`${body}<button type="button" class="rw-whole"
    aria-expanded=${whole ? "true" : "false"} onClick=${(e3) => {
    e3.stopPropagation();
    setWhole(!whole);
  }}
    >${whole ? "Show less" : `Show all ${s3.length.toLocaleString("en")} characters`}</button>`;
}

// src/dataset/adjudicate.js
var DECISION_KEYS = { e: "Entailment", n: "Neutral", c: "Contradiction" };
var SHORT = { Entailment: "E", Neutral: "N", Contradiction: "C" };
var ROW = { answer2response: "R", retrieved2response: "R", response2answer: "G", retrieved2answer: "G" };
var labelName = (d3) => `${ROW[d3.kind] || ""}${d3.claim + 1}${d3.doc_id ? ` × ${showId(d3.doc_id)}` : ""}`;
function Adjudicate({ part: a3, request, set }) {
  const [said2, setSaid] = d2("");
  const several = a3.rows.some((d3) => d3.run);
  const samplesLabel = `${a3.query_ids.length} sample${a3.query_ids.length === 1 ? "" : "s"} the reviewers disagree on`;
  const decide = (d3, label, tr) => request("adjudicate", {
    run: d3.run,
    query_id: d3.query_id,
    kind: d3.kind,
    claim: d3.claim,
    doc_id: d3.doc_id,
    label
  }).then((reply) => {
    setSaid(reply.said || "");
    const next = tr && tr.nextElementSibling;
    if (next) next.focus();
  }).catch(() => null);
  const open = (d3) => d3.row >= 0 && set({ selected: d3.row });
  const onKey = (d3) => (e3) => {
    const label = DECISION_KEYS[e3.key.toLowerCase()];
    if (label && !e3.ctrlKey && !e3.metaKey && !e3.altKey) {
      e3.preventDefault();
      e3.stopPropagation();
      if (!e3.repeat) decide(d3, label, e3.currentTarget);
    } else if (e3.key === "Enter") {
      e3.preventDefault();
      open(d3);
    }
  };
  return html`<div class="rw-ds-adjudicate" data-testid="adjudicate">
    <p class="rw-hint">${a3.total} label${a3.total === 1 ? "" : "s"} the reviewers disagree on, ${a3.decided} decided${a3.rows.length < a3.total ? ` (the first ${a3.rows.length} listed)` : ""}.
      Press E / N / C on a row to decide (saved as adjudicated), Enter or a click to open its sample.
      <button data-testid="adjudicate-samples" onClick=${() => set({ samples: { label: samplesLabel, query_ids: a3.query_ids } })}>Show their ${a3.query_ids.length} sample${a3.query_ids.length === 1 ? "" : "s"} in the table</button></p>
    ${said2 ? html`<p role="status" data-testid="adjudicate-said">${said2}</p>` : ""}
    <div class="rw-ds-trust-wrap"><table class="rw-table rw-ds-trust-table">
      <thead><tr>${several ? html`<th scope="col">run</th>` : ""}<th scope="col">sample</th><th scope="col">label</th><th scope="col">claim</th>
        ${a3.reviewers.map((r3) => html`<th scope="col">${r3 || "(unnamed)"}</th>`)}<th scope="col">decision</th><th scope="col">decide</th></tr></thead>
      <tbody>${a3.rows.map((d3) => html`<tr tabindex="0" data-testid="disagreement" data-query=${d3.query_id}
          class=${d3.adjudicated ? "rw-ds-decided" : ""} onKeyDown=${onKey(d3)} onClick=${(e3) => !e3.target.closest("button") && open(d3)}>
        ${several ? html`<td>${showId(d3.run)}</td>` : ""}<td>${showId(d3.query_id)}</td>
        <td title=${d3.kind}>${labelName(d3)}</td><td class="rw-ds-claim-text">${d3.claim_text}</td>
        ${a3.reviewers.map((r3) => html`<td>${d3.labels[r3] || html`<span class="rw-hint">—</span>`}</td>`)}
        <td data-testid="decision">${d3.adjudicated || html`<span class="rw-hint">not yet</span>`}</td>
        <td>${Object.entries(SHORT).map(([label, key]) => html`<button data-testid=${`decide-${key}`} title=${`Decide ${label} (${key})`}
          aria-pressed=${d3.adjudicated === label ? "true" : "false"} onClick=${(e3) => decide(d3, label, e3.currentTarget.closest("tr"))}>${key}</button>`)}</td>
      </tr>`)}</tbody>
    </table></div>
  </div>`;
}
var panel = {
  key: "adjudicate",
  title: "Adjudicate",
  place: "tab",
  shows: (view) => !!view.adjudicate,
  part: (view) => view.adjudicate,
  traits: ["selected", "samples"],
  Panel: Adjudicate
};

// src/dataset/calibration.js
var fail = () => null;
var SIZE = 220;
var PAD = 34;
var COLOURS = { before: "var(--rw-warn)", after: "var(--rw-accent)" };
var share2 = (s3) => s3.value === null ? "Undefined" : s3.low === null ? s3.value : `${s3.value} (${s3.low} to ${s3.high})`;
function Diagram({ diagrams }) {
  const x2 = (p3) => PAD + p3 * (SIZE - PAD - 8);
  const y3 = (p3) => SIZE - PAD - p3 * (SIZE - PAD - 8);
  const ticks = [0, 0.5, 1];
  return html`<svg class="rw-ds-calibration-diagram" data-testid="calibration-diagram" width=${SIZE} height=${SIZE}
      viewBox=${`0 0 ${SIZE} ${SIZE}`} role="img" aria-label="reliability diagram">
    <line x1=${x2(0)} y1=${y3(0)} x2=${x2(1)} y2=${y3(1)} stroke="currentColor" stroke-opacity="0.35" stroke-dasharray="4 3" />
    <line x1=${x2(0)} y1=${y3(0)} x2=${x2(1)} y2=${y3(0)} stroke="currentColor" stroke-opacity="0.6" />
    <line x1=${x2(0)} y1=${y3(0)} x2=${x2(0)} y2=${y3(1)} stroke="currentColor" stroke-opacity="0.6" />
    ${ticks.map((t4) => html`<text x=${x2(t4)} y=${y3(0) + 14} text-anchor="middle" font-size="10" fill="currentColor">${t4}</text>
      <text x=${x2(0) - 6} y=${y3(t4) + 3} text-anchor="end" font-size="10" fill="currentColor">${t4}</text>`)}
    <text x=${x2(0.5)} y=${SIZE - 4} text-anchor="middle" font-size="10" fill="currentColor">predicted P(entailment)</text>
    <text x="10" y=${y3(0.5)} text-anchor="middle" font-size="10" fill="currentColor" transform=${`rotate(-90 10 ${y3(0.5)})`}>reviewer's entailed share</text>
    ${Object.entries(diagrams).map(([name, d3]) => {
    const total = d3.rows.reduce((a3, r3) => a3 + r3[2], 0) || 1;
    return d3.rows.map(([, , n4, predicted, observed, lo, hi]) => html`<g data-testid=${`calibration-point-${name}`}>
        <line x1=${x2(predicted)} x2=${x2(predicted)} y1=${y3(lo)} y2=${y3(hi)} style=${`stroke: ${COLOURS[name]}; stroke-opacity: 0.5`} />
        <circle cx=${x2(predicted)} cy=${y3(observed)} r=${2.5 + 6 * Math.sqrt(n4 / total)} style=${`fill: ${COLOURS[name]}; fill-opacity: 0.75`}>
          <title>${`${name}: ${n4} checks, predicted ${predicted.toFixed(3)}, observed ${observed.toFixed(3)} (${lo.toFixed(3)} to ${hi.toFixed(3)})`}</title></circle>
      </g>`);
  })}
  </svg>`;
}
function Calibration({ part: c3, request }) {
  const [method, setMethod] = d2(c3.method);
  const names = Object.keys(c3.diagrams);
  return html`<div class="rw-ds-panel rw-ds-calibration" data-testid="calibration">
    <p class="rw-ds-calibration-checker" data-testid="calibration-checker">${c3.checker}${c3.run ? ` · run ${c3.run}` : ""}</p>
    <p><label>method <select data-testid="calibration-method" value=${method} onChange=${(e3) => setMethod(e3.target.value)}>
        ${c3.methods.map((m3) => html`<option value=${m3}>${m3}</option>`)}</select></label>
      <button type="button" data-testid="calibration-fit" onClick=${() => request("calibrate", { method }).catch(fail)}>Fit</button>
      <span class="rw-hint"> threshold: a cut on the support; platt: σ(a·logit(s) + b); isotonic: a non-decreasing step map</span></p>
    ${c3.stale ? html`<p class="rw-hint" data-testid="calibration-stale"><b>Reviews changed since this fit: its figures are those of the reviews then.</b>
      <button type="button" data-testid="calibration-again" onClick=${() => request("calibrate", { method: c3.method }).catch(fail)}>Fit again</button></p>` : ""}
    <table class="rw-table rw-ds-calibration-table" data-testid="calibration-table">
      <caption>Agreement with the reviewer on ${c3.n} reviewed checks (${c3.entailed} entailed), 95% intervals over the samples${c3.checks_left_out ? ` · ${c3.checks_left_out} left out (blank claim or passage)` : ""}</caption>
      <tbody>
        <tr><th scope="row">before (the checker's own labels)</th><td data-testid="calibration-before">${share2(c3.before)}</td></tr>
        <tr><th scope="row">after (${c3.method}${c3.folds ? `, ${c3.folds}-fold cross-validated` : ""})</th><td data-testid="calibration-after">${share2(c3.after)}</td></tr>
        <tr><th scope="row">change</th><td data-testid="calibration-change">${share2(c3.change)}</td></tr>
        <tr><th scope="row">fitted threshold on the support</th><td data-testid="calibration-threshold">${c3.threshold === null ? "Undefined" : c3.threshold}</td></tr>
      </tbody>
    </table>
    <p data-testid="calibration-advice">${c3.advice}</p>
    <div class="rw-ds-calibration-reliability">
      <${Diagram} diagrams=${c3.diagrams} />
      <div>
        <p>${names.map((name) => html`<span class="rw-ds-calibration-key" style=${`color: ${COLOURS[name]}`}>● ${name}</span>
          <span class="rw-hint"> ECE ${c3.diagrams[name].ece}, Brier ${c3.diagrams[name].brier} </span>`)}</p>
        <p class="rw-hint">Each dot a bin of predicted probability (its size: the checks in it), its whisker the reviewer's
          entailed share's 95% interval; on the dashed line the checker means what it says.${names.length < 2 && !c3.reason ? " A threshold gives labels, not probabilities: no after diagram." : ""}</p>
        ${names.map((name) => html`<details><summary>${name}: the bins</summary>
          <table class="rw-table" data-testid=${`calibration-bins-${name}`}><thead><tr>${["bin", "checks", "predicted", "observed", "95%"].map((h3) => html`<th>${h3}</th>`)}</tr></thead>
          <tbody>${c3.diagrams[name].rows.map(([lo, hi, n4, p3, o3, olo, ohi]) => html`<tr><td>${lo.toFixed(1)}–${hi.toFixed(1)}</td><td>${n4}</td>
            <td>${p3.toFixed(3)}</td><td>${o3.toFixed(3)}</td><td>${olo.toFixed(3)} to ${ohi.toFixed(3)}</td></tr>`)}</tbody></table></details>`)}
      </div>
    </div>
  </div>`;
}
var panel2 = {
  key: "calibration",
  title: "Calibration",
  place: "tab",
  shows: (view) => !!view.calibration,
  part: (view) => view.calibration,
  traits: [],
  Panel: Calibration
};

// src/dataset/common.js
var fmt = (v3, digits = 3) => v3 === null || v3 === void 0 || Number.isNaN(v3) ? "" : Number(v3).toFixed(digits);
var meanText = (v3) => v3 === null || v3 === void 0 ? "Undefined" : Number(v3).toFixed(3);
var labelsOf = (metrics) => Object.fromEntries(metrics.map((m3) => [m3.key, m3.label]));
function TraitSelect({ trait, value, options, labels = options, set }) {
  return html`<select value=${value} data-testid=${trait} onChange=${(e3) => set({ [trait]: e3.target.value })}>
    ${options.map((o3, i3) => html`<option value=${o3}>${labels[i3]}</option>`)}</select>`;
}
var toggled = (list, x2) => list.includes(x2) ? list.filter((y3) => y3 !== x2) : [...list, x2];
var PAUSE = 1500;

// src/dataset/charts.js
var W = 290;
var H2 = 150;
var PAD2 = { left: 34, right: 8, top: 8, bottom: 30 };
function brushedBins(edges, brush) {
  if (!brush || brush.undefined || brush.lo === void 0) return null;
  const lo = edges.findIndex((e3) => e3 >= brush.lo - 1e-9);
  let hi = edges.findIndex((e3) => e3 >= brush.hi - 1e-9) - 1;
  if (hi < lo) hi = lo;
  return [lo, Math.min(hi, edges.length - 2)];
}
function Distribution({ chart, label, brush, onBrush }) {
  const [drag, setDrag] = d2(null);
  const bins = chart.counts.length;
  const extra = [{ key: "undefined", label: "Undef", count: chart.undefined }];
  if (chart.not_computable) extra.push({ key: "nc", label: "n/c", count: chart.not_computable });
  const slots = bins + 1 + extra.length;
  const bw = (W - PAD2.left - PAD2.right) / slots;
  const max = Math.max(1, ...chart.counts, ...extra.map((e3) => e3.count));
  const y3 = (c3) => PAD2.top + (H2 - PAD2.top - PAD2.bottom) * (1 - c3 / max);
  const mine = brush && brush.metric === chart.metric ? brush : null;
  const span = drag ? [Math.min(drag[0], drag[1]), Math.max(drag[0], drag[1])] : brushedBins(chart.edges, mine);
  const finish = (i3) => {
    const [a3, b2] = [Math.min(drag[0], i3), Math.max(drag[0], i3)];
    setDrag(null);
    onBrush({ metric: chart.metric, lo: chart.edges[a3], hi: chart.edges[b2 + 1] });
  };
  return html`<svg class="rw-ds-chart" width=${W} height=${H2} role="img" data-testid="distribution"
      aria-label=${`${label}: distribution`} onMouseLeave=${() => setDrag(null)}>
    <text x=${PAD2.left} y=${H2 - 4} class="rw-ds-axis">0</text>
    <text x=${PAD2.left + bins * bw - 6} y=${H2 - 4} class="rw-ds-axis">1</text>
    <text x=${4} y=${PAD2.top + 8} class="rw-ds-axis">${max}</text>
    ${chart.counts.map((c3, i3) => {
    const on = span && i3 >= span[0] && i3 <= span[1];
    return html`<rect class=${`rw-ds-bar${on ? " rw-ds-on" : ""}`} data-bin=${i3}
        x=${PAD2.left + i3 * bw + 1} y=${y3(c3)} width=${bw - 2} height=${Math.max(0, H2 - PAD2.bottom - y3(c3))} />
        <rect class="rw-ds-hit" data-hit=${i3} x=${PAD2.left + i3 * bw} y=${PAD2.top} width=${bw} height=${H2 - PAD2.top - PAD2.bottom}
          onMouseDown=${(e3) => {
      e3.preventDefault();
      setDrag([i3, i3]);
    }}
          onMouseEnter=${() => drag && setDrag([drag[0], i3])}
          onMouseUp=${() => drag && finish(i3)}><title>${chart.edges[i3]}–${chart.edges[i3 + 1]}: ${c3} samples</title></rect>`;
  })}
    ${extra.map((e3, k3) => {
    const x2 = PAD2.left + (bins + 1 + k3) * bw;
    const on = e3.key === "undefined" && mine && mine.undefined;
    return html`<g><rect class=${`rw-ds-undef-bar${on ? " rw-ds-on" : ""}`} data-bar=${e3.key}
          x=${x2 + 1} y=${y3(e3.count)} width=${bw - 2} height=${Math.max(0, H2 - PAD2.bottom - y3(e3.count))}
          onClick=${() => e3.key === "undefined" && onBrush({ metric: chart.metric, undefined: true })}>
          <title>${e3.label}: ${e3.count} samples</title></rect>
        <text x=${x2} y=${H2 - 16} class="rw-ds-axis">${e3.label}</text>
        <text x=${x2} y=${H2 - 4} class="rw-ds-axis">${e3.count}</text></g>`;
  })}
  </svg>`;
}
function binRange(column, i3, j3, bins) {
  const lo = +(i3 / bins).toFixed(6);
  const hi = +((j3 + 1) / bins).toFixed(6);
  return `${column} >= ${lo} and ${column} ${j3 + 1 >= bins ? "<=" : "<"} ${hi}`;
}
function scatterCondition(x2, y3, bins, [i0, j0], [i1, j1]) {
  return `${binRange(x2, Math.min(i0, i1), Math.max(i0, i1), bins)} and ${binRange(y3, Math.min(j0, j1), Math.max(j0, j1), bins)}`;
}
function Scatter({ chart, x: x2, y: y3, xLabel, yLabel, picked = [], onPick = () => {
} }) {
  const size = 150;
  const cell = size / chart.bins;
  const max = Math.max(1, ...chart.cells.map((c3) => c3[2]));
  const [drag, setDrag] = d2(null);
  const at = (e3) => {
    const r3 = e3.currentTarget.getBoundingClientRect();
    const clamp = (v3) => Math.min(chart.bins - 1, Math.max(0, Math.floor(v3)));
    return [
      clamp((e3.clientX - r3.left) / (r3.width || size) * chart.bins),
      clamp(chart.bins - (e3.clientY - r3.top) / (r3.height || size) * chart.bins)
    ];
  };
  const box = drag && [
    Math.min(drag[0][0], drag[1][0]),
    Math.min(drag[0][1], drag[1][1]),
    Math.max(drag[0][0], drag[1][0]),
    Math.max(drag[0][1], drag[1][1])
  ];
  return html`<svg class="rw-ds-chart" width=${size + 44} height=${size + 30} role="img" data-testid="scatter"
      aria-label=${`${yLabel} against ${xLabel}`}>
    <rect x="36" y="4" width=${size} height=${size} class="rw-ds-frame" />
    ${chart.cells.map(([i3, j3, c3]) => {
    const on = picked.includes(scatterCondition(x2, y3, chart.bins, [i3, j3], [i3, j3]));
    return html`<rect class=${`rw-ds-cell${on ? " rw-ds-on" : ""}`} x=${36 + i3 * cell} y=${4 + size - (j3 + 1) * cell}
        width=${cell} height=${cell} style=${`opacity:${0.15 + 0.85 * Math.log1p(c3) / Math.log1p(max)}`}>
        <title>${xLabel} ${(i3 / chart.bins).toFixed(2)}–${((i3 + 1) / chart.bins).toFixed(2)}, ${yLabel} ${(j3 / chart.bins).toFixed(2)}–${((j3 + 1) / chart.bins).toFixed(2)}: ${c3}</title></rect>`;
  })}
    ${box ? html`<rect class="rw-ds-box" x=${36 + box[0] * cell} y=${4 + size - (box[3] + 1) * cell}
      width=${(box[2] - box[0] + 1) * cell} height=${(box[3] - box[1] + 1) * cell} />` : ""}
    <rect class="rw-ds-hit" data-testid="scatter-hit" x="36" y="4" width=${size} height=${size}
      onMouseDown=${(e3) => {
    e3.preventDefault();
    const p3 = at(e3);
    setDrag([p3, p3]);
  }}
      onMouseMove=${(e3) => drag && setDrag([drag[0], at(e3)])}
      onMouseLeave=${() => setDrag(null)}
      onMouseUp=${(e3) => {
    if (!drag) return;
    const end = at(e3);
    setDrag(null);
    onPick(scatterCondition(x2, y3, chart.bins, drag[0], end));
  }}>
      <title>Click a cell or drag a box: keep those samples</title></rect>
    <text x="30" y="12" class="rw-ds-axis" text-anchor="end">1</text>
    <text x="30" y=${size + 4} class="rw-ds-axis" text-anchor="end">0</text>
    <text x=${36 + size} y=${size + 18} class="rw-ds-axis" text-anchor="end">1</text>
    <text x="36" y=${size + 28} class="rw-ds-axis">${xLabel} → · ↑ ${yLabel} · ${chart.left_out} left out (Undefined)</text>
  </svg>`;
}
var shortLabel = (name) => name.length > 18 ? `…${name.slice(-17)}` : name;
function GroupMeans({ chart, label, onPick, picked = () => false }) {
  const rowH = 20;
  const width = 290;
  const barX = 110;
  const rows = chart.rows;
  return html`<svg class="rw-ds-chart" width=${width} height=${rows.length * rowH + 6} role="img" data-testid="groups"
      aria-label=${`${label} by ${chart.by}`}>
    ${rows.map((r3, i3) => html`<g class=${`rw-ds-group${picked(String(r3.group)) ? " rw-ds-on" : ""}`} data-group=${String(r3.group)}
      onClick=${() => onPick(String(r3.group))}>
      <text x=${barX - 6} y=${i3 * rowH + 15} text-anchor="end" class="rw-ds-axis">${shortLabel(String(r3.group))}</text>
      ${r3.mean === null ? html`<text x=${barX} y=${i3 * rowH + 15} class="rw-ds-undef-text">Undefined (n=${r3.size})</text>` : html`<rect class="rw-ds-bar" x=${barX} y=${i3 * rowH + 3} width=${Math.max(1, (width - barX - 90) * r3.mean)} height=${rowH - 6} />
          <text x=${barX + (width - barX - 90) * r3.mean + 4} y=${i3 * rowH + 15} class="rw-ds-axis">${meanText(r3.mean)} (n=${r3.defined})</text>`}
      <title>${r3.group}: ${meanText(r3.mean)} over ${r3.defined} defined of ${r3.size}</title></g>`)}
  </svg>`;
}
function groupCondition(column, group) {
  return `${column} == ${JSON.stringify(Number.isNaN(Number(group)) ? group : Number(group))}`;
}
function Charts({ part, set }) {
  const { charts, labelOf, keys, labels, groupColumns, c: c3 } = part;
  const select = (trait, options, names = options) => html`<${TraitSelect} trait=${trait} value=${c3[trait]} options=${options} labels=${names} set=${set} />`;
  const toggle = (x2) => set({ conditions: toggled(c3.conditions, x2) });
  return html`<div class="rw-ds-charts">
      ${charts.distribution ? html`<div class="rw-ds-panel"><h4>Distribution ${select("chart_metric", keys, labels)}
          <span class="rw-hint">drag across bins to filter</span></h4>
        <${Distribution} chart=${charts.distribution} label=${labelOf[c3.chart_metric]} brush=${c3.brush}
          onBrush=${(brush) => set({ brush })} /></div>` : ""}
      ${charts.scatter ? html`<div class="rw-ds-panel"><h4>Scatter ${select("scatter_x", keys, labels)} × ${select("scatter_y", keys, labels)}
          <span class="rw-hint">click a cell or drag a box to filter</span></h4>
        <${Scatter} chart=${charts.scatter} x=${c3.scatter_x} y=${c3.scatter_y} xLabel=${labelOf[c3.scatter_x]}
          yLabel=${labelOf[c3.scatter_y]} picked=${c3.conditions} onPick=${toggle} /></div>` : ""}
      ${charts.groups ? html`<div class="rw-ds-panel"><h4>Mean by ${select("group_by", groupColumns)}
          <span class="rw-hint">click a bar to filter, again to undo</span></h4>
        <${GroupMeans} chart=${charts.groups} label=${labelOf[c3.chart_metric]}
          picked=${(g2) => c3.group_by === "run" ? c3.run === g2 : c3.conditions.includes(groupCondition(c3.group_by, g2))}
          onPick=${(g2) => c3.group_by === "run" ? set({ run: c3.run === g2 ? "" : g2 }) : toggle(groupCondition(c3.group_by, g2))} /></div>` : ""}
    </div>`;
}
var panel3 = {
  key: "charts",
  title: "Charts",
  place: "tab",
  shows: () => true,
  part: (view) => {
    const c3 = view.controls;
    const chartable = view.chartable || view.metrics;
    return {
      charts: view.charts,
      labelOf: labelsOf(view.metrics),
      keys: chartable.map((m3) => m3.key),
      labels: chartable.map((m3) => m3.label),
      groupColumns: view.group_columns,
      c: {
        chart_metric: c3.chart_metric,
        scatter_x: c3.scatter_x,
        scatter_y: c3.scatter_y,
        group_by: c3.group_by,
        run: c3.run,
        brush: c3.brush || {},
        conditions: c3.conditions || []
      }
    };
  },
  traits: ["chart_metric", "scatter_x", "scatter_y", "group_by", "brush", "conditions", "run"],
  Panel: Charts
};

// src/dataset/modes.js
function pct(x2) {
  if (x2 === null || x2 === void 0) return "";
  if (x2 > 0 && x2 < 5e-3) return "<1%";
  if (x2 < 1 && x2 >= 0.995) return ">99%";
  return `${Math.round(x2 * 100)}%`;
}
function rateText(rate, lo, hi) {
  if (rate === null || rate === void 0) return "Undefined";
  return lo === null || lo === void 0 ? pct(rate) : `${pct(rate)} (${pct(lo)}–${pct(hi)})`;
}
var heat = (rate) => rate === null || rate === void 0 ? "" : `background: color-mix(in srgb, var(--rw-accent) ${Math.round(8 + 52 * rate)}%, transparent)`;
var plural = (n4, word) => `${n4} ${word}${n4 === 1 ? "" : "s"}`;
var fail2 = () => null;
function ModeName({ m: m3, pick, rename }) {
  const [editing, setEditing] = d2(null);
  if (editing !== null) {
    return html`<input class="rw-ds-modes-rename" data-testid="mode-rename" value=${editing} aria-label=${`New name of ${m3.mode}`}
      ref=${(el) => el && !el.dataset.focused && (el.dataset.focused = "1", el.focus())}
      onInput=${(e3) => setEditing(e3.target.value)}
      onKeyDown=${(e3) => {
      if (e3.key === "Enter") rename(m3.mode, e3.target.value).then((ok) => ok && setEditing(null));
      if (e3.key === "Escape") setEditing(null);
    }} />`;
  }
  return html`<button type="button" class="rw-idlink rw-ds-modes-name" data-testid="mode-pick" data-mode=${m3.mode}
      title="Show this mode's samples in the table" onClick=${() => pick(m3.mode, "")}>${m3.mode}</button>
    <button type="button" class="rw-ds-modes-icon" title="Rename this mode" aria-label=${`Rename ${m3.mode}`}
      data-testid="mode-edit" onClick=${() => setEditing(m3.mode)}>✎</button>`;
}
function Cell({ c: c3, onPick }) {
  if (!c3) return html`<td class="rw-num rw-hint">—</td>`;
  const share3 = c3.run_rate !== null && c3.run_rate !== void 0;
  return html`<td class="rw-num rw-ds-modes-cell" style=${heat(c3.rate)}>
    <button type="button" class="rw-ds-cell" onClick=${onPick} title="Show these samples in the table">
      <b>${c3.tagged}</b>/${c3.read} · ${rateText(c3.rate, c3.lo, c3.hi)}${share3 ? html`<br /><span class="rw-hint">run ${rateText(c3.run_rate, c3.run_lo, c3.run_hi)}</span>` : ""}
    </button></td>`;
}
function Split({ mode, request, done }) {
  const [notes, setNotes] = d2(null);
  const [ticked, setTicked] = d2([]);
  const [name, setName] = d2("");
  h2(() => {
    request("modes_notes", { mode }).then(setNotes, () => done());
  }, [mode]);
  if (notes === null) return html`<p class="rw-hint">Loading the notes of ${mode}…</p>`;
  const key = (n4) => JSON.stringify([n4.run, n4.query_id, n4.claim]);
  const split = () => request("modes_split", { mode, new: name, keys: ticked.map((k3) => JSON.parse(k3)) }).then(done, fail2);
  return html`<div class="rw-ds-modes-split" data-testid="mode-split">
    <b>Split ${mode}:</b> tick the notes that get a new tag.
    <ul>${notes.notes.map((n4) => html`<li><label><input type="checkbox" checked=${ticked.includes(key(n4))}
        onChange=${() => setTicked((t4) => toggled(t4, key(n4)))} />
      <span class="rw-idtext">${showId(n4.query_id)}${n4.claim === null ? "" : ` · claim ${n4.claim + 1}`}</span> ${n4.note || html`<i class="rw-hint">(no text)</i>`}</label></li>`)}
    </ul>${notes.more ? html`<p class="rw-hint">${notes.more} more not listed.</p>` : ""}
    <input placeholder="new tag" value=${name} onInput=${(e3) => setName(e3.target.value)} data-testid="split-name" />
    <button type="button" disabled=${!ticked.length || !name.trim()} onClick=${split}>Split off ${ticked.length}</button>
    <button type="button" onClick=${done}>Cancel</button>
  </div>`;
}
function Proposal({ p: p3, i: i3, request }) {
  const [name, setName] = d2(p3.name);
  return html`<li class="rw-ds-modes-proposal" data-testid="proposal">
    <input value=${name} onInput=${(e3) => setName(e3.target.value)} aria-label="Name of this mode" data-testid="proposal-name" />
    <button type="button" data-testid="proposal-accept" disabled=${!name.trim()}
      onClick=${() => request("modes_accept", { index: i3, name }).catch(fail2)}>Accept</button>
    <button type="button" data-testid="proposal-reject" onClick=${() => request("modes_reject", { index: i3 }).catch(fail2)}>Reject</button>
    <span class="rw-hint"> ${plural(p3.n, "note")} · ${p3.why}${p3.source === "judge" ? " (judge)" : ""}</span>
    <ul>${p3.notes.map((n4) => html`<li><span class="rw-idtext">${showId(n4.query_id)}</span> ${n4.note}</li>`)}
      ${p3.n > p3.notes.length ? html`<li class="rw-hint">… ${p3.n - p3.notes.length} more</li>` : ""}</ul>
  </li>`;
}
function Modes({ part: m3, request, set }) {
  const opened = A2(true);
  h2(() => {
    const first = opened.current;
    opened.current = false;
    if (!m3.stale) return void 0;
    const t4 = setTimeout(() => request("modes_table").catch(fail2), first ? 0 : PAUSE);
    return () => clearTimeout(t4);
  });
  const [ticked, setTicked] = d2([]);
  const [mergeName, setMergeName] = d2("");
  const [splitting, setSplitting] = d2("");
  const runs = m3.runs;
  const grid = runs.length > 1;
  const pick = (mode, run) => request("modes_pick", { mode, run }).then((r3) => set({ samples: { label: r3.label, query_ids: r3.query_ids }, ...r3.run ? { run: r3.run } : {} })).catch(fail2);
  const rename = (mode, name) => request("modes_rename", { mode, new: name }).then(() => true, () => false);
  const merge = () => request("modes_merge", { modes: ticked, new: mergeName }).then(() => {
    setTicked([]);
    setMergeName("");
  }, fail2);
  const read = runs.map((r3) => `${plural(m3.read[r3], "sample")} read${grid ? ` in ${showId(r3)}` : ""}`).join(" · ");
  const basis = runs.filter((r3) => m3.basis[r3]).map((r3) => `${grid ? `${showId(r3)}: ` : ""}${m3.basis[r3]}`).join("; ");
  return html`<div class="rw-ds-panel rw-ds-modes" data-testid="modes">
    <p class="rw-hint" data-testid="modes-line">${read} · ${plural(m3.modes.length, "mode")} · ${plural(m3.untagged, "untagged note")} · ${m3.files.length ? `edits saved to ${m3.files.join(", ")}` : "edits kept in memory (no notes file)"}</p>
    ${m3.stale ? html`<p class="rw-hint" data-testid="modes-stale"><b>${m3.modes.length ? "Updating after the latest notes…" : "Counting…"}</b></p>` : ""}
    ${m3.modes.length ? html`<table class="rw-table rw-ds-modes-table" data-testid="modes-table">
      <thead><tr><th scope="col" title="Tick two or more to merge them">merge</th><th scope="col">mode</th>
        ${grid ? runs.map((r3) => html`<th scope="col" class="rw-num">${showId(r3)}</th>`) : html`<th scope="col">tagged / read</th><th scope="col">rate among read (95%)</th><th scope="col">share of the run (95%)</th>`}
        <th scope="col"></th></tr></thead>
      <tbody>${m3.modes.map((x2) => {
    const c3 = x2.runs[runs[0]];
    return html`<tr key=${x2.mode} data-mode=${x2.mode}>
          <td><input type="checkbox" aria-label=${`Merge ${x2.mode}`} checked=${ticked.includes(x2.mode)}
            onChange=${() => setTicked((t4) => toggled(t4, x2.mode))} /></td>
          <td><${ModeName} m=${x2} pick=${pick} rename=${rename} /></td>
          ${grid ? runs.map((r3) => html`<${Cell} c=${x2.runs[r3]} onPick=${() => pick(x2.mode, r3)} />`) : html`<td class="rw-num" data-testid="mode-count"><b>${c3.tagged}</b> / ${c3.read}</td>
              <td class="rw-num" data-testid="mode-rate" style=${heat(c3.rate)}>${rateText(c3.rate, c3.lo, c3.hi)}</td>
              <td class="rw-num" data-testid="mode-share">${c3.run_rate === null ? html`<span class="rw-hint" title=${basis}>no design</span>` : rateText(c3.run_rate, c3.run_lo, c3.run_hi)}</td>`}
          <td><button type="button" data-testid="mode-split-open" onClick=${() => setSplitting(splitting === x2.mode ? "" : x2.mode)}>Split…</button></td>
        </tr>`;
  })}</tbody></table>` : m3.stale ? "" : html`<p class="rw-hint">No mode yet: tag notes in the drill-down, or propose groupings of the untagged notes.</p>`}
    ${basis ? html`<p class="rw-hint" data-testid="modes-basis">${basis}</p>` : ""}
    ${ticked.length > 1 ? html`<p class="rw-ds-modes-merge">Merge ${ticked.join(", ")} into
      <input placeholder="name" value=${mergeName} onInput=${(e3) => setMergeName(e3.target.value)} data-testid="merge-name" />
      <button type="button" disabled=${!mergeName.trim()} onClick=${merge} data-testid="merge">Merge</button></p>` : ""}
    ${splitting ? html`<${Split} key=${splitting} mode=${splitting} request=${request} done=${() => setSplitting("")} />` : ""}
    <div class="rw-ds-modes-proposals">
      <button type="button" data-testid="propose" disabled=${!m3.untagged}
        onClick=${() => request("modes_propose", {}).catch(fail2)}>Propose groupings</button>
      ${m3.judge ? html`<button type="button" data-testid="propose-judge" disabled=${!m3.untagged}
        onClick=${() => request("modes_propose", { judge: true }).catch(fail2)}>Ask the judge</button>` : ""}
      ${m3.proposed ? html`<span class="rw-hint"> ${m3.proposed}${m3.proposals.length ? "" : " · none left"}</span>` : ""}
      <ol>${m3.proposals.map((p3, i3) => html`<${Proposal} key=${`${m3.proposed}|${p3.name}|${p3.notes.length ? p3.notes[0].query_id : ""}`} p=${p3} i=${i3} request=${request} />`)}</ol>
    </div>
  </div>`;
}
var panel4 = {
  key: "modes",
  title: "Failure modes",
  place: "tab",
  shows: (view) => !!view.modes,
  part: (view) => view.modes,
  traits: ["samples", "run"],
  Panel: Modes
};

// src/dataset/checks.js
var fail3 = () => null;
var SAID = { caught: "caught (tagged, flagged)", false_alarm: "false alarms (read, not tagged, flagged)", missed: "missed (tagged, not flagged)" };
function Checks({ part: c3, request, set }) {
  const last = c3.check;
  const [mode, setMode] = d2(last ? last.mode : c3.modes[0] || "");
  const [kind, setKind] = d2(last && last.signal ? "signal" : "expression");
  const [expression, setExpression] = d2(last ? last.expression : "");
  const [signal, setSignal] = d2(last && last.signal ? last.signal : (c3.signals[0] || {}).name || "");
  const [name, setName] = d2("");
  const chosen = c3.modes.includes(mode) ? mode : c3.modes[0] || "";
  const check = () => request("mode_check", { mode: chosen, run: c3.run, ...kind === "signal" ? { signal } : { expression } }).catch(fail3);
  const open = (qid) => request("mode_row", { query_id: qid, run: last.run }).then((r3) => set({ selected: r3.row }), fail3);
  const sig = c3.signals.find((s3) => s3.name === signal);
  return html`<div class="rw-ds-panel rw-ds-modes rw-ds-modes-check" data-testid="checks">
    <p class="rw-ds-modes-rule">
      <label>mode <select data-testid="check-mode" value=${chosen} onChange=${(e3) => setMode(e3.target.value)}>
        ${c3.modes.map((m3) => html`<option value=${m3}>${m3}</option>`)}</select></label>
      <label><input type="radio" name="rw-ds-modes-kind" checked=${kind === "expression"} onChange=${() => setKind("expression")} /> expression</label>
      <label><input type="radio" name="rw-ds-modes-kind" checked=${kind === "signal"} onChange=${() => setKind("signal")} data-testid="check-kind-signal" /> signal</label>
      ${kind === "expression" ? html`<input class="rw-ds-expr" data-testid="check-expression" placeholder="faithfulness < 0.5 and n_passages > 3" value=${expression}
            onInput=${(e3) => setExpression(e3.target.value)} onKeyDown=${(e3) => e3.key === "Enter" && check()} />` : html`<select data-testid="check-signal" value=${signal} onChange=${(e3) => setSignal(e3.target.value)} title=${sig ? sig.description : ""}>
            ${c3.signals.map((s3) => html`<option value=${s3.name} title=${s3.description}>${s3.label}</option>`)}</select>`}
      <button type="button" data-testid="check-run" disabled=${!chosen || kind === "expression" && !expression.trim()} onClick=${check}>Check</button>
    </p>
    ${kind === "signal" && sig ? html`<p class="rw-hint">${sig.label}: ${sig.description}.</p>` : ""}
    ${!c3.modes.length ? html`<p class="rw-hint">No mode yet: tag notes first.</p>` : ""}
    ${last && c3.stale ? html`<p class="rw-hint" data-testid="check-stale"><b>The notes changed since this check${c3.modes.includes(last.mode) ? "" : ` (no note carries ${last.mode} now)`}:
      its figures are those of the notes then.</b> ${c3.modes.includes(last.mode) ? html`<button type="button" data-testid="check-again"
        onClick=${() => request("mode_check", { mode: last.mode, run: last.run, ...last.signal ? { signal: last.signal } : { expression: last.expression } }).catch(fail3)}>Check again</button>` : ""}</p>` : ""}
    ${last ? html`<div data-testid="check-result">
      <p><b>${last.mode}</b> ← ${last.expression ? html`<code>${last.expression}</code>` : last.label}${c3.run ? ` (run ${showId(last.run)})` : ""}</p>
      <p data-testid="check-words">${last.words}</p>
      <p>precision <b data-testid="check-precision">${rateText(last.precision, last.precision_lo, last.precision_hi)}</b> ·
        recall <b data-testid="check-recall">${rateText(last.recall, last.recall_lo, last.recall_hi)}</b>
        <span class="rw-hint"> (95% intervals, among the samples read)</span></p>
      ${Object.entries(SAID).map(([k3, words2]) => last.examples[k3].length ? html`<p class="rw-ds-modes-examples">${words2}:
        ${last.examples[k3].map((q3) => html` <button type="button" class="rw-idlink" data-testid="check-example" onClick=${() => open(q3)}
          title="Open in the drill-down">${showId(q3)}</button>`)}</p>` : "")}
      <p>${last.expression ? html`<input placeholder="slice name" value=${name} onInput=${(e3) => setName(e3.target.value)} data-testid="slice-name" />
        <button type="button" data-testid="slice-save" disabled=${!name.trim()}
          onClick=${() => request("mode_slice", { name }).then(() => setName(""), fail3)}>Save as slice</button>` : html`<span class="rw-hint">A signal has no filter expression, so it cannot be a slice: write the rule as an expression to keep it.</span>`}</p>
    </div>` : ""}
  </div>`;
}
var panel5 = {
  key: "checks",
  title: "Mode checks",
  place: "tab",
  shows: (view) => !!view.checks,
  part: (view) => view.checks,
  traits: ["selected"],
  Panel: Checks
};

// src/dataset/compare.js
var signed = (v3) => v3 === null ? "" : (v3 > 0 ? "+" : "") + fmt(v3);
var STEP = 10;
var SIDE = { answer2response: "R", retrieved2response: "R", response2answer: "G", retrieved2answer: "G" };
function ClaimChanges({ changes, label, request, set }) {
  const [run, setRun] = d2(changes.runs[0]);
  const [top, setTop] = d2(changes.top);
  const chosen = changes.runs.includes(run) ? run : changes.runs[0];
  const f3 = changes.found;
  const current = !!f3 && f3.run === chosen && f3.top === top;
  const asked = A2("");
  h2(() => {
    const key = `${changes.metric}
${chosen}
${top}`;
    if (current) asked.current = "";
    else if (asked.current !== key) {
      asked.current = key;
      request("claim_changes", { run: chosen, top }).catch(() => null);
    }
  });
  const open = (q3) => q3.row >= 0 && set({ selected: q3.row });
  return html`<div class="rw-ds-changes" data-testid="claim-changes">
    <h4>What changed, claim by claim <span class="rw-hint">(${label}: the queries that moved most${changes.runs.length > 1 ? "" : ` in ${showId(chosen)}`} against ${showId(f3 ? f3.baseline : "the baseline")})</span></h4>
    ${changes.runs.length > 1 ? html`<label>run <select value=${chosen} data-testid="changes-run"
      onChange=${(e3) => setRun(e3.target.value)}>${changes.runs.map((r3) => html`<option value=${r3}>${showId(r3)}</option>`)}</select></label>` : ""}
    ${!current ? html`<p class="rw-hint" role="status" data-testid="changes-pending">Finding the claims that changed…</p>` : !f3.queries.length ? html`<p class="rw-hint" data-testid="changes-none">No shared query moved on ${label}.</p>` : html`<div class="rw-ds-wide"><table class="rw-table" data-testid="changes-table">
        <thead><tr><th>query</th><th>baseline</th><th>${showId(chosen)}</th><th>difference</th><th>claim</th><th>what changed</th></tr></thead>
        <tbody>${f3.queries.map((q3) => html`<tr class="rw-ds-changes-query" data-testid="changes-query" key=${q3.query_id}>
            <td><button type="button" class="rw-idlink" title="Open in the drill-down" disabled=${q3.row < 0}
              onClick=${() => open(q3)}><${Id} id=${q3.query_id} /></button></td>
            <td class="rw-num">${fmt(q3.base_value)}</td><td class="rw-num">${fmt(q3.new_value)}</td>
            <td class="rw-num"><b>${signed(q3.difference)}</b></td>
            <td colspan="2" class="rw-hint">${q3.said || `${q3.changes.length + q3.more} change${q3.changes.length + q3.more === 1 ? "" : "s"}`}</td></tr>
          ${q3.changes.map((c3, k3) => html`<tr data-testid="changes-claim" key=${`${q3.query_id} ${k3}`} onClick=${() => open(q3)}
              title="Open in the drill-down"><td></td><td colspan="3" class="rw-hint">${c3.base_label === null && c3.new_label === null ? "" : c3.kind}</td>
            <td><b title=${`${SIDE[c3.kind]}${c3.claim + 1} of ${showId(c3.change.startsWith("removed") ? f3.baseline : chosen)}`}>${SIDE[c3.kind]}${c3.claim + 1}</b> ${c3.claim_text}</td><td data-testid="changes-said">${c3.change}</td></tr>`)}
          ${q3.more ? html`<tr><td></td><td colspan="5" class="rw-hint">… and ${q3.more} more (rw.analysis.claim_changes lists every one)</td></tr>` : ""}`)}
        </tbody></table></div>
        ${f3.queries.length === top && top < changes.max_top ? html`<button type="button" data-testid="changes-more"
          onClick=${() => setTop(Math.min(top + STEP, changes.max_top))}>More queries</button>` : ""}`}
  </div>`;
}
function Compare({ part, request, set }) {
  const { compare: cmp, metric, chartable, changes } = part;
  const rows = cmp.rows.filter((r3) => r3.metric === metric);
  return html`<div class="rw-ds-panel" data-testid="compare">
    <h4>Compared with ${cmp.baseline} on ${cmp.shared} shared queries
      <span class="rw-hint">(left out: ${Object.entries(cmp.left_out).map(([k3, n4]) => `${k3} ${n4}`).join(", ")})</span></h4>
    ${Object.entries(cmp.query_mismatch || {}).filter(([, n4]) => n4).map(([run, n4]) => html`<p class="rw-ds-notice" role="note" data-testid="query-mismatch">
      ⚠ ${run}: ${n4} shared query_id${n4 === 1 ? "" : "s"} ask${n4 === 1 ? "s" : ""} another question than in ${cmp.baseline} (still paired by query_id)</p>`)}
    ${Object.entries(cmp.judge_notes || {}).filter(([, note]) => note).map(([run, note]) => html`<p class="rw-ds-notice" role="note" data-testid="judge-note">
      ⚠ ${run}: ${note}; part of its difference may be the judge's</p>`)}
    ${Object.keys(cmp.said || {}).length ? html`<p class="rw-hint" role="status">${Object.entries(cmp.said).map(([run, said2], k3) => html`${k3 ? " · " : ""}<span data-testid="compare-said">${run}: ${said2}</span>`)}</p>` : ""}
    <label>metric <select value=${metric} onChange=${(e3) => set({ compare_metric: e3.target.value })}>
      ${chartable.map((m3) => html`<option value=${m3.key}>${m3.label}</option>`)}</select></label>
    <button onClick=${() => set({ sort_by: "difference", descending: true })}>Queries by difference</button>
    <div class="rw-ds-wide"><table class="rw-table"><thead><tr><th>run</th><th>baseline</th><th>run</th><th>difference</th><th>paired 95% interval</th><th>paired</th></tr></thead>
      <tbody>${rows.map((r3) => html`<tr><td>${r3.run}</td><td class="rw-num">${fmt(r3.baseline_mean)}</td><td class="rw-num">${fmt(r3.mean)}</td>
        <td class="rw-num">${r3.difference === null ? "" : (r3.difference > 0 ? "+" : "") + fmt(r3.difference)}
          ${r3.judge_note ? html` <span class="rw-ds-badge" title=${r3.judge_note} data-testid="judged-differently">judged differently</span>` : ""}</td>
        <td class="rw-num">${r3.ci_low === null ? "" : `${fmt(r3.ci_low)} – ${fmt(r3.ci_high)}`}
          ${r3.includes_zero ? html` <span class="rw-ds-badge">includes 0</span>` : ""}</td><td class="rw-num">${r3.paired}</td></tr>`)}</tbody></table></div>
    ${changes ? html`<${ClaimChanges} changes=${changes} request=${request} set=${set}
      label=${(chartable.find((m3) => m3.key === changes.metric) || { label: changes.metric }).label} />` : ""}
  </div>`;
}
var panel6 = {
  key: "compare",
  title: "Comparison",
  place: "tab",
  shows: (view) => !!view.compare,
  part: (view) => ({
    compare: view.compare,
    metric: view.controls.compare_metric,
    chartable: view.chartable || view.metrics,
    changes: view.changes || null
  }),
  traits: ["compare_metric", "sort_by", "descending", "selected"],
  Panel: Compare
};

// src/dataset/columns.js
function Columns({ part, set }) {
  const { columns, all } = part;
  const shown = columns.map((col) => col.key);
  const save = (keys) => set({ table_columns: keys });
  const move = (key, by) => {
    const keys = [...shown];
    const i3 = keys.indexOf(key);
    const j3 = i3 + by;
    if (j3 < 0 || j3 >= keys.length) return;
    [keys[i3], keys[j3]] = [keys[j3], keys[i3]];
    save(keys);
  };
  const toggle = (key, on) => save(on ? [...shown, key] : shown.filter((k3) => k3 !== key));
  const order = [...columns, ...all.filter((col) => !shown.includes(col.key))];
  return html`<div class="rw-ds-panel" data-testid="columns">
    <p class="rw-hint">Choose the table's columns and their order (kept with the widget: <code>explorer.table_columns</code>).
      <button onClick=${() => save([])} data-testid="columns-reset">All, in the default order</button></p>
    <ol class="rw-ds-columns">${order.map((col) => {
    const on = shown.includes(col.key);
    return html`<li key=${col.key} data-column=${col.key}>
        <label><input type="checkbox" checked=${on} disabled=${on && shown.length === 1}
          onChange=${(e3) => toggle(col.key, e3.target.checked)} /> ${col.label}</label>
        ${on ? html`<button title="Move left" aria-label=${`Move ${col.label} left`} onClick=${() => move(col.key, -1)}>↑</button>
          <button title="Move right" aria-label=${`Move ${col.label} right`} onClick=${() => move(col.key, 1)}>↓</button>` : ""}
      </li>`;
  })}</ol>
  </div>`;
}
var panel7 = {
  key: "columns",
  title: "Columns",
  place: "tab",
  shows: () => true,
  part: (view) => ({ columns: view.columns, all: view.all_columns }),
  traits: ["table_columns"],
  Panel: Columns
};

// src/cards.js
function itemsNote(c3) {
  if (!c3.denominator_items.length) return null;
  const counted = c3.numerator_items.length ? c3.numerator_items.join(", ") : "none";
  return `counted: ${counted} — out of: ${c3.denominator_items.join(", ")}`;
}
function Prediction({ c: c3, predictions, send }) {
  const p3 = c3.prediction;
  const commit = (input) => {
    const text = input.value.trim();
    if ((predictions[c3.name] || "") === text) return;
    const next = { ...predictions };
    if (text) next[c3.name] = text;
    else delete next[c3.name];
    send({ predictions: next });
  };
  let verdict = null;
  if (p3 && !p3.readable) verdict = html`<div class="rw-verdict rw-verdict-no">${p3.message}</div>`;
  else if (p3)
    verdict = html`<div class=${p3.match ? "rw-verdict rw-verdict-yes" : "rw-verdict rw-verdict-no"} data-testid="verdict">
      ${p3.match ? `✓ You predicted ${p3.shown}: right` : `✗ You predicted ${p3.shown}; actual ${c3.shown}`}
    </div>`;
  return html`<div class="rw-prediction">
    <input type="text" class="rw-predict-input" placeholder="0.5, 2/3 or Undefined"
      aria-label=${`Your prediction for ${c3.label}`} value=${p3 ? p3.text : ""}
      onChange=${(e3) => commit(e3.target)} onKeyDown=${(e3) => e3.key === "Enter" && commit(e3.target)} />
    ${verdict}
  </div>`;
}
var Card = memo(function Card2({ c: c3, predict, predictions, send, detail = false }) {
  const undef = c3.value === null && !c3.hidden;
  const substitute = c3.value !== null && c3.reason && c3.status === "defined";
  const cls = ["rw-card", undef && "rw-undefined", c3.hidden && "rw-concealed", substitute && "rw-substitute"];
  let body;
  if (c3.hidden) {
    body = html`<div class="rw-card-value rw-hidden-value" data-testid="value">?</div>
      <div class="rw-card-fraction">Enter your prediction to reveal</div>`;
  } else {
    body = html`<div class="rw-card-value" data-testid="value">${c3.shown}${substitute ? html`<span class="rw-substitute-mark"> (substitute)</span>` : null}</div>
      <div class="rw-card-fraction" data-testid="fraction">${c3.fraction}</div>
      ${c3.judge_shown ? html`<div class="rw-card-judge" data-testid="judge-value" title="the value under the judge's labels, before the reviews">judge's labels: <s>${c3.judge_shown}</s></div>` : null}
      ${c3.reason && (undef || substitute) ? html`<div class="rw-card-reason">${c3.reason}</div>` : null}`;
  }
  const items = c3.hidden ? null : itemsNote(c3);
  return html`<article class=${cls.filter(Boolean).join(" ")} data-metric=${detail ? null : c3.name}
      data-card=${detail ? c3.name : null} aria-label=${c3.label} title=${detail ? null : items}>
    <div class="rw-card-label">${c3.label}${c3.lower_is_better ? html`<span class="rw-hint" title="lower is better"> ↓</span>` : null}</div>
    ${body}
    <div class="rw-card-def">${c3.definition}</div>
    ${detail && items ? html`<div class="rw-card-items" data-testid="items">${items}</div>` : null}
    ${predict ? html`<${Prediction} c=${c3} predictions=${predictions} send=${send} />` : null}
  </article>`;
});
function Group({ g: g2, predict, predictions, send }) {
  return html`<div class="rw-card-group" data-group=${g2.group}>
    <h4>${g2.title}</h4>
    <div class="rw-card-grid">
      ${g2.cards.map((c3) => html`<${Card} key=${c3.name} c=${c3} predict=${predict} predictions=${predictions} send=${send} />`)}
    </div>
  </div>`;
}
var Cards = memo(function Cards2({ groups, missing, predict, predictions, send }) {
  const primary = groups.filter((g2) => !g2.secondary);
  const secondary = groups.filter((g2) => g2.secondary);
  const n4 = secondary.reduce((k3, g2) => k3 + g2.cards.length, 0);
  const group = (g2) => html`<${Group} key=${g2.group} g=${g2} predict=${predict} predictions=${predictions} send=${send} />`;
  return html`<section class="rw-cards" data-testid="cards">
    ${primary.map(group)}
    ${secondary.length ? html`<details class="rw-more"><summary>RAGChecker metrics on the same state (${n4})</summary>${secondary.map(group)}</details>` : null}
    ${missing.length ? html`<p class="rw-note">Not computable for this data: ${missing.map(
    (m3, i3) => html`${i3 ? "; " : ""}<b>${m3.label}</b> (${m3.reason})`
  )}</p>` : null}
  </section>`;
});
var StripItem = memo(function StripItem2({ c: c3, open, toggle }) {
  const undef = c3.value === null;
  const substitute = c3.value !== null && c3.reason && c3.status === "defined";
  const cls = ["rw-strip-item", undef && "rw-undefined", substitute && "rw-substitute", open && "rw-active"];
  return html`<button type="button" class=${cls.filter(Boolean).join(" ")} data-metric=${c3.name}
      aria-expanded=${open ? "true" : "false"}
      title=${`${c3.label}: ${c3.shown}${c3.reason ? ` (${c3.reason})` : ""}. Enter: the full card`}
      onClick=${() => toggle(c3.name)}>
    <span class="rw-strip-label">${c3.label}${c3.lower_is_better ? html`<span class="rw-hint" title="lower is better">↓</span>` : null}</span>
    <span class="rw-strip-value">${c3.judge_shown ? html`<s class="rw-judge-label" data-testid="judge-value" title="the value under the judge's labels, before the reviews"><span class="rw-sr">judge's labels: </span>${c3.judge_shown}</s> → ` : null}<b data-testid="value">${c3.shown}</b>${substitute ? html`<span class="rw-substitute-mark"> (substitute)</span>` : null}</span>
    <span class="rw-strip-fraction" data-testid="fraction">${c3.fraction}</span>
  </button>`;
});
function Strip({ groups, missing, send }) {
  const [open, setOpen] = d2(null);
  const toggle = q2((name) => setOpen((o3) => o3 === name ? null : name), []);
  const strip = A2(null);
  const cards = groups.flatMap((g2) => g2.cards);
  const shown = cards.find((c3) => c3.name === open) || null;
  const close = (e3) => {
    if (e3.key !== "Escape" || !shown) return;
    e3.preventDefault();
    e3.stopPropagation();
    setOpen(null);
    const item = strip.current && [...strip.current.querySelectorAll(".rw-strip-item")].find((b2) => b2.dataset.metric === shown.name);
    if (item) item.focus();
  };
  return html`<section class="rw-cards rw-strip-section" data-testid="cards" onKeyDown=${close}>
    <div class="rw-strip" ref=${strip} role="group" aria-label="Metrics (Enter on one: its full card)">
      ${groups.map((g2) => html`<div class="rw-strip-group" key=${g2.group} data-group=${g2.group}>
        <span class="rw-strip-title">${g2.title.replace("RAGChecker · ", "")}</span>
        ${g2.cards.map((c3) => html`<${StripItem} key=${c3.name} c=${c3} open=${open === c3.name}
          toggle=${toggle} />`)}
      </div>`)}
    </div>
    ${shown ? html`<div class="rw-card-detail" data-testid="card-detail">
        <${Card} c=${shown} predict=${false} predictions=${{}} send=${send} detail=${true} />
        <button type="button" class="rw-close" aria-label="Close the card (Esc)" onClick=${() => setOpen(null)}>✕</button>
      </div>` : null}
    ${missing.length ? html`<details class="rw-note rw-not-computable" data-testid="not-computable">
          <summary>⊘ Not computable for this data (${missing.length}): ${missing.map((m3) => m3.label).join(", ")}</summary>
          <ul>${missing.map((m3) => html`<li key=${m3.name}><b>${m3.label}</b>: ${m3.reason}</li>`)}</ul>
        </details>` : null}
  </section>`;
}

// src/picker.js
var WAIT_MS = 150;
var number = (v3) => v3 === null ? "Undefined" : String(v3);
function Picker({ p: p3, send, search }) {
  const [text, setText] = d2("");
  const [results, setResults] = d2(null);
  const [active, setActive] = d2(0);
  const asked = A2({ request: 0, timer: null });
  h2(() => () => clearTimeout(asked.current.timer), []);
  const ask = (next) => {
    clearTimeout(asked.current.timer);
    setText(next);
    if (!next.trim()) {
      setResults(null);
      return;
    }
    asked.current.timer = setTimeout(async () => {
      const request = ++asked.current.request;
      const found = await search(next);
      if (request === asked.current.request) {
        setResults(found);
        setActive(0);
      }
    }, WAIT_MS);
  };
  const pick = (index) => {
    setResults(null);
    setText("");
    if (index !== p3.index) send({ sample_index: index });
  };
  const rows = results && results.rows || [];
  const keys = (e3) => {
    if (e3.key === "ArrowDown" || e3.key === "ArrowUp") {
      e3.preventDefault();
      const step = e3.key === "ArrowDown" ? 1 : -1;
      setActive(Math.max(0, Math.min(rows.length - 1, active + step)));
    } else if (e3.key === "Enter" && rows.length) {
      e3.preventDefault();
      pick(rows[active].index);
    } else if (e3.key === "Escape") {
      setResults(null);
    }
  };
  return html`<div class="rw-picker" data-testid="picker">
    <span class="rw-control-label">Sample</span>
    <button type="button" aria-label="Previous sample" data-testid="prev" disabled=${p3.index === 0}
      onClick=${() => send({ sample_index: p3.index - 1 })}>◀</button>
    <span class="rw-picker-current" data-testid="current">${(p3.index + 1).toLocaleString("en")} of ${p3.total.toLocaleString("en")}:${" "}<bdi class="rw-idtext">${showId(p3.query_id)}</bdi></span>
    <button type="button" aria-label="Next sample" data-testid="next" disabled=${p3.index === p3.total - 1}
      onClick=${() => send({ sample_index: p3.index + 1 })}>▶</button>
    <input type="search" class="rw-picker-search" data-testid="search" value=${text}
      aria-label="Search samples" placeholder="Search: words of the query or its id; faithfulness<0.5; hallucination=undefined"
      onInput=${(e3) => ask(e3.target.value)} onKeyDown=${(e3) => keys(e3)} />
    ${results ? html`<div class="rw-picker-results">
          ${results.error ? html`<p class="rw-picker-error" role="alert">${results.error}</p>` : html`<p class="rw-note" data-testid="matches">${results.matches.toLocaleString("en")} matching
                sample${results.matches === 1 ? "" : "s"}${results.matches > rows.length ? ` (first ${rows.length} shown)` : ""}</p>`}
          <ul role="listbox" aria-label="Matching samples">
            ${rows.map((r3, k3) => html`<li key=${r3.index} role="option" aria-selected=${k3 === active ? "true" : "false"}
                class=${k3 === active ? "rw-picker-row rw-active" : "rw-picker-row"} data-index=${r3.index}
                onClick=${() => pick(r3.index)}>
              <span class="rw-num">${r3.index + 1}</span>${" "}<bdi class="rw-idtext">${showId(r3.query_id)}</bdi>${" "}<span
                class="rw-picker-query">${r3.query}</span>${" "}<span class="rw-picker-metrics">${Object.entries(r3.metrics).map(([n4, v3]) => `${n4} ${number(v3)}`).join(" · ")}</span>
            </li>`)}
          </ul>
        </div>` : null}
  </div>`;
}

// src/controls.js
var Header = memo(function Header2({ title, question, state, kind }) {
  const none = !question && kind === "sample" ? html`<span class="rw-hint">none in this sample</span>` : null;
  return html`<header class="rw-header">
    <h3 class="rw-title"><${LongText} text=${title} /></h3>
    ${question || none ? html`<p class="rw-question"><b>Question: </b>${none || html`<${LongText} text=${question} />`}</p>` : null}
    <p class="rw-state" data-testid="state"><b>State: </b><${LongText} text=${state} /></p>
  </header>`;
});
function Choice({ s: s3, send }) {
  const labels = s3.option_labels || s3.options;
  const valueOf = (i3) => s3.numeric ? i3 : s3.options[i3];
  const current = s3.numeric ? s3.value : s3.options.indexOf(s3.value);
  const labelId = `rw-label-${s3.trait}`;
  const label = html`<span class="rw-control-label" id=${labelId}>${s3.label}</span>`;
  if (s3.options.length > 8) {
    return html`<div class="rw-control">
      ${label}
      <select aria-labelledby=${labelId} data-trait=${s3.trait} value=${String(current)}
        onChange=${(e3) => send({ [s3.trait]: valueOf(Number(e3.target.value)) })}>
        ${labels.map((text, i3) => html`<option key=${i3} value=${String(i3)}>${text}</option>`)}
      </select>
    </div>`;
  }
  return html`<div class="rw-control" role="radiogroup" aria-labelledby=${labelId} data-trait=${s3.trait}>
    ${label}
    ${labels.map(
    (text, i3) => html`<button key=${s3.options[i3]} type="button" role="radio"
        class=${i3 === current ? "rw-option rw-active" : "rw-option"}
        aria-checked=${i3 === current ? "true" : "false"} data-option=${s3.options[i3]}
        onClick=${() => send({ [s3.trait]: valueOf(i3) })}>${text}</button>`
  )}
  </div>`;
}
function TopK({ t: t4, ids, inPlay, send }) {
  const commit = (e3) => {
    const k3 = Math.round(Number(e3.target.value));
    if (e3.target.value === "" || !Number.isFinite(k3)) return;
    const clamped = Math.max(0, Math.min(t4.max, k3));
    if (clamped !== t4.value) send({ retrieved: ids.slice(0, clamped) });
  };
  return html`<div class="rw-control" data-trait="top_k">
    <label class="rw-control-label" for="rw-top-k">Top k passages</label>
    <input type="range" min="0" max=${String(t4.max)} value=${String(t4.value ?? inPlay)}
      aria-label="Top k passages (slider)" data-testid="top-k-range" onChange=${commit} />
    <input type="number" id="rw-top-k" class="rw-top-k" min="0" max=${String(t4.max)}
      value=${t4.value === null ? "" : String(t4.value)} placeholder="custom" data-testid="top-k"
      onChange=${commit} />
    <span class="rw-top-k-note">${t4.value === null ? `custom set of ${inPlay}` : `of ${t4.max}`}</span>
  </div>`;
}
var Controls = memo(function Controls2({ c: c3, predict, ids, inPlay, send, search }) {
  return html`<section class="rw-controls" data-testid="controls">
    ${c3.picker && search ? html`<${Picker} p=${c3.picker} send=${send} search=${search} />` : null}
    ${c3.selects.map((s3) => html`<${Choice} key=${s3.trait} s=${s3} send=${send} />`)}
    ${c3.top_k ? html`<${TopK} t=${c3.top_k} ids=${ids} inPlay=${inPlay} send=${send} />` : null}
    <div class="rw-presets" role="group" aria-label="Presets">
      <span class="rw-control-label">Presets</span>
      ${c3.presets.map(
    (p3) => html`<button key=${p3.name} type="button" class=${p3.active ? "rw-preset rw-active" : "rw-preset"}
          title=${p3.note} aria-pressed=${p3.active ? "true" : "false"} data-preset=${p3.name}
          onClick=${() => send(p3.set)}>${p3.name}</button>`
  )}
    </div>
    <div class="rw-tools">
      <button type="button" class="rw-reset" data-testid="reset" onClick=${() => send(c3.reset)}>↺ Reset</button>
      <label class="rw-predict-toggle">
        <input type="checkbox" checked=${predict} data-testid="predict"
          onChange=${(e3) => send({ predict: e3.target.checked })} /> Predict before reveal
      </label>
      ${c3.edited ? html`<span class="rw-edited">Passages edited: ${c3.edited}</span>` : null}
    </div>
  </section>`;
});

// src/failing.js
var SHOWN = 12;
var KINDS = [
  ["hallucinated", "Incorrect, and no retrieved passage entails it (hallucination)", (c3) => c3.correct === false && c3.faithful === false],
  ["misled", "Incorrect, yet a retrieved passage entails it (noise sensitivity)", (c3) => c3.correct === false && c3.faithful === true],
  ["incorrect", "Incorrect: the ground-truth answer does not entail it (no passage labels to say more)", (c3) => c3.correct === false && c3.faithful === null],
  ["unsupported", "Correct, but no retrieved passage entails it (self-knowledge)", (c3) => c3.correct === true && c3.faithful === false],
  ["unfaithful", "No retrieved passage entails it", (c3) => c3.correct === null && c3.faithful === false],
  ["contradicted", "⊗ Contradicted by the ground-truth answer (not merely absent from it)", (c3) => c3.contradicted],
  ["bad-citation", "Cites a source that is not retrieved or does not entail it", (c3) => (c3.citations || []).some((x2) => !x2.valid)]
];
function Chips({ items, selected, send }) {
  const [all, setAll] = d2(false);
  return html`${(all ? items : items.slice(0, SHOWN)).map(
    (x2) => html`<button key=${x2.key} type="button" class=${selected === x2.key ? "rw-chip rw-active" : "rw-chip"}
      title=${x2.text} onClick=${() => send({ selected: selected === x2.key ? "" : x2.key })}>${showId(x2.id)}</button>`
  )}${items.length > SHOWN ? html`<button type="button" class="rw-more-count" aria-expanded=${all ? "true" : "false"}
      onClick=${() => setAll(!all)}>${all ? "fewer" : `+ ${items.length - SHOWN} more`}</button>` : null}`;
}
var Failing = memo(function Failing2({ claims, gtClaims, selected, send }) {
  const rows = KINDS.map(([name, why, test]) => [name, why, claims.filter(test)]).filter(([, , items]) => items.length);
  const missed = gtClaims.filter((g2) => g2.covered === false);
  const fine = !rows.length && !missed.length;
  return html`<section class="rw-section rw-failing" data-testid="failing">
    <h4>Which claims fail, and why</h4>
    ${fine ? html`<p class="rw-note">${claims.some((c3) => c3.faithful === null) ? "No claim fails where that is known: every claim is correct where the ground truth says; without passage labels, whether a passage entails it is not known." : "No claim fails: every claim is correct where that is known and entailed by a retrieved passage."}</p>` : null}
    <ul class="rw-failing-list">
      ${rows.map(([name, why, items]) => html`<li key=${name} data-kind=${name}>
        <span class="rw-failing-why"><b>${items.length}</b> ${why}:</span> <${Chips} items=${items} selected=${selected} send=${send} />
      </li>`)}
      ${missed.length ? html`<li data-kind="missed"><span class="rw-failing-why"><b>${missed.length}</b> ground-truth claims the response does not cover:</span>
            <${Chips} items=${missed} selected=${selected} send=${send} /></li>` : null}
    </ul>
  </section>`;
});

// src/keys.js
var ROOT = "data-rw-keys";
var SUPPRESS = "data-lm-suppress-shortcuts";
function forHost(e3) {
  const altGraph = typeof e3.getModifierState === "function" && e3.getModifierState("AltGraph");
  return !altGraph && (e3.ctrlKey || e3.metaKey || e3.altKey) || e3.key === "Escape" || e3.key === "Tab" || e3.shiftKey && e3.key === "Enter";
}
var marked = null;
function mark(e3) {
  if (marked) marked.removeAttribute(SUPPRESS);
  marked = null;
  const target = e3.target;
  if (forHost(e3) || !target || target.nodeType !== 1 || target.hasAttribute(SUPPRESS)) return;
  if (!e3.composedPath().some((node) => node.nodeType === 1 && node.hasAttribute(ROOT))) return;
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
  const stop = (e3) => {
    if (!forHost(e3)) e3.stopPropagation();
  };
  el.addEventListener("keydown", stop);
  return () => {
    el.removeEventListener("keydown", stop);
    el.removeAttribute(ROOT);
    if (focus) el.removeAttribute("tabindex");
  };
}

// src/labels.js
var LABEL_CODES = { Entailment: 1, Neutral: 0, Contradiction: 2 };
var UNJUDGED = -1;

// src/review.js
var LABEL = {
  [LABEL_CODES.Entailment]: ["●", "Entailment"],
  [LABEL_CODES.Neutral]: ["·", "Neutral"],
  [LABEL_CODES.Contradiction]: ["⊗", "Contradiction"],
  [UNJUDGED]: ["?", "unjudged"]
};
var KEYS = { e: "Entailment", n: "Neutral", c: "Contradiction" };
var ROW_KIND = { answer2response: "retrieved2response", response2answer: "retrieved2answer" };
var REVIEW_ORDER = ["answer2response", "response2answer", "retrieved2response", "retrieved2answer"];
var PASSAGE_KINDS = ["retrieved2response", "retrieved2answer"];
function nextLabel(view, kinds = null) {
  const next = view && view.review && view.review.next;
  if (!next) return null;
  for (const k3 of REVIEW_ORDER) if (next[k3] && (!kinds || kinds.includes(k3))) return next[k3];
  return null;
}
var firstPassage = (item, view) => item.supported_by[0] || item.contradicted_by[0] || (view && view.sources.length ? view.sources[0].doc_id : null);
function keyAction(key, target) {
  const k3 = key.toLowerCase();
  if (k3 in KEYS) return { ...target, label: KEYS[k3] };
  if (k3 === "a") return { ...target, label: null };
  if (k3 === "u") return { kind: ROW_KIND[target.kind] || target.kind, claim: target.claim, doc_id: null, label: "Neutral" };
  return null;
}
function reviewKeys(e3, target, ctx, onWhy) {
  if (!ctx.review || e3.ctrlKey || e3.metaKey || e3.altKey) return false;
  const why = e3.key.toLowerCase() === "w" && onWhy;
  const action = why ? null : keyAction(e3.key, target);
  if (!why && !action) return false;
  e3.preventDefault();
  if (e3.repeat) return true;
  if (why) onWhy();
  else ctx.review(action);
  return true;
}
var said = (code) => `${LABEL[code][0]} ${LABEL[code][1]}`;
function LabelShown({ r: r3 }) {
  if (!r3.reviewed) return html`<span class="rw-label" title="the judge's label">${said(r3.judge)} <span class="rw-who">(judge)</span></span>`;
  if (r3.label === r3.judge) return html`<span class="rw-label rw-confirmed" title="the judge's label, confirmed by a reviewer">${said(r3.label)} <span class="rw-who">✓ confirmed</span></span>`;
  return html`<span class="rw-label rw-overruled"><s class="rw-judge-label" title="the judge's label, overruled">${said(r3.judge)}</s>${" → "}<b title="the reviewer's label">${said(r3.label)}</b> <span class="rw-who">(reviewer)</span></span>`;
}
function ReviewButtons({ target, ctx, labels = true, onWhy = null }) {
  const act = (label, t4 = target) => (e3) => {
    e3.stopPropagation();
    ctx.review({ ...t4, label });
  };
  return html`<span class="rw-review-buttons" role="group" aria-label="Review this label">
    ${labels ? Object.entries(KEYS).map(([k3, label]) => html`<button type="button" class="rw-review-button" data-review=${label}
      title=${`${label} (key ${k3.toUpperCase()})`} onClick=${act(label)}>${k3.toUpperCase()}</button>`) : null}
    ${labels ? html`<button type="button" class="rw-review-button" data-review="confirm" title="Confirm the judge's label (key A)" onClick=${act(null)}>✓</button>` : null}
    <button type="button" class="rw-review-button" data-review="unsupported" title="No passage supports it: the whole row Neutral (key U)"
      onClick=${act("Neutral", { kind: ROW_KIND[target.kind] || target.kind, claim: target.claim, doc_id: null })}>none supports</button>
    ${onWhy ? html`<button type="button" class="rw-review-button" data-testid="why" title="Why the judge said it: its prompt and raw reply (key W)"
      onClick=${(e3) => {
    e3.stopPropagation();
    onWhy();
  }}>Why?</button>` : null}
  </span>`;
}
function hint(next) {
  const kinds = Object.keys(next || {});
  const rows = kinds.includes("answer2response") || kinds.includes("response2answer") ? "a claim row (its label against the ground truth, or the ground-truth claim against the response) or a matrix cell (claim × passage)" : "a matrix cell (claim × passage; no ground-truth labels here) or a claim row (its passages)";
  return html`<b>Review the judge: </b>the next label to review is focused (or press the button); on ${rows} press E / N / C (Entailment / Neutral / Contradiction), A to confirm the judge's label, U for "no passage supports it" (the claim's whole passage row), W for why the judge said it.`;
}
var ReviewLine = memo(function ReviewLine2({ review, queue = null, focusNext = null }) {
  if (!review) return null;
  const q3 = review.queue;
  return html`<section class="rw-review-line" data-testid="review" aria-live="polite">
    <p data-testid="review-changes">${review.count ? html`<b>Reviewed: </b>${review.line}` : hint(review.next)}
      ${review.file ? html` <span class="rw-hint">Saved to ${review.file}.</span>` : null}</p>
    ${focusNext ? html`<p><button type="button" data-testid="next-label" title="Focus the next label to review (then E / N / C / A)"
      onClick=${focusNext}>Next label to review ▸</button></p>` : null}
    ${q3 ? html`<p data-testid="queue">Review queue (${q3.strategy}): <b data-testid="progress">${q3.line}</b>${q3.total ? ` · item ${q3.position + 1}` : ""}${q3.double ? html` · <b data-testid="queue-double">${q3.double}</b>` : ""}
      ${queue ? html`<button type="button" onClick=${() => queue(-1)} disabled=${q3.position === 0} title="Previous in the queue ([)">◀ previous</button>
        <button type="button" onClick=${() => queue(1)} disabled=${q3.position >= q3.total - 1} title="Next in the queue (])" data-testid="queue-next">next ▶</button>` : null}
      ${q3.note ? html` <span class="rw-hint">${q3.note}</span>` : null}</p>` : null}
    ${review.error ? html`<p class="rw-review-error" role="alert" data-testid="review-error">${review.error}</p>` : null}
    ${review.problems.length ? html`<details><summary>${review.problems.length} review(s) not applied</summary>
      <ul>${review.problems.map((p3) => html`<li>${p3}</li>`)}</ul></details>` : null}
  </section>`;
});
function TracePanel({ answer, onClose }) {
  if (!answer) return null;
  const t4 = answer.trace;
  return html`<section class="rw-trace" data-testid="trace" aria-label="Why the judge said it">
    <h4>Why the judge said it: ${answer.title} <button type="button" onClick=${onClose} aria-label="Close the trace">✕</button></h4>
    ${answer.pending ? html`<p class="rw-note">Asking…</p>` : !t4 ? html`<p class="rw-note" data-testid="no-trace">No trace kept${answer.reason ? `: ${answer.reason}` : "."}</p>` : html`<p class="rw-note">${[t4.model, t4.prompt_version, t4.time].filter(Boolean).join(" · ")}${t4.label !== null && t4.label !== void 0 ? ` · label: ${typeof t4.label === "string" ? t4.label : JSON.stringify(t4.label)}` : ""}</p>
        ${t4.note ? html`<pre class="rw-trace-text">${t4.note}</pre>` : null}
        ${(t4.messages || []).map((m3) => html`<div><i>${m3.role}</i><pre class="rw-trace-text">${m3.content}</pre></div>`)}
        ${t4.reasoning ? html`<div><i>reasoning</i><pre class="rw-trace-text">${t4.reasoning}</pre></div>` : null}
        ${t4.reply !== null && t4.reply !== void 0 ? html`<div><i>raw reply</i><pre class="rw-trace-text" data-testid="trace-reply">${t4.reply}</pre></div>` : null}`}
  </section>`;
}
function useTrace(ctx) {
  const [answer, setAnswer] = d2(null);
  const why = ctx.trace ? (target, title) => {
    setAnswer({ title, pending: true });
    ctx.trace(target).then((reply) => setAnswer({ title, trace: reply.trace, reason: reply.reason }));
  } : null;
  return [answer, why, () => setAnswer(null)];
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
  const change = (node, path, i3, op) => {
    const out = own(node);
    const key = path[i3];
    if (i3 < path.length - 1) put(out, key, change(node[key], path, i3 + 1, op));
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

// src/matrix.js
var CELL = {
  [LABEL_CODES.Entailment]: ["●", "entails", "rw-entails"],
  [LABEL_CODES.Neutral]: ["·", "does not mention", "rw-neutral"],
  [LABEL_CODES.Contradiction]: ["⊗", "contradicts", "rw-contradicts"],
  [UNJUDGED]: ["?", "unjudged", "rw-unjudged"]
};
var ON_DEMAND = 600;
function marksOf(reviewed, index) {
  return reviewed ? reviewed.filter((x2) => x2[0] === index).map((x2) => `${x2[1]}:${x2[2]}`).join(",") : "";
}
function cellTarget(m3, index, col) {
  const response = index < m3.response.length;
  return {
    kind: response ? "retrieved2response" : "retrieved2answer",
    claim: response ? index : index - m3.response.length,
    doc_id: m3.columns[col].doc_id
  };
}
function cellKeys(e3, { index, col, width, setCursor, act }) {
  if (e3.ctrlKey || e3.metaKey || e3.altKey) return;
  if (e3.key === "ArrowLeft" || e3.key === "ArrowRight") {
    e3.preventDefault();
    setCursor({ index, col: Math.max(0, Math.min(width - 1, col + (e3.key === "ArrowRight" ? 1 : -1))) });
  } else if (e3.key === "ArrowDown" || e3.key === "ArrowUp") {
    const next = e3.key === "ArrowDown" ? e3.currentTarget.nextElementSibling : e3.currentTarget.previousElementSibling;
    if (next) {
      e3.preventDefault();
      next.focus();
    }
  } else act(e3, index, col);
}
var MatrixRow = memo(function MatrixRow2({ r: r3, buf, index, doc_ids, selected, ctx, cursorCol, marks, reviewable, setCursor, act }) {
  const cells = typed(buf, Int8Array).subarray(index * doc_ids.length, (index + 1) * doc_ids.length);
  const judged = Object.fromEntries(marks ? marks.split(",").map((x2) => x2.split(":").map(Number)) : []);
  const col = cursorCol < 0 ? 0 : cursorCol;
  const keys = reviewable ? (e3) => cellKeys(e3, { index, col, width: doc_ids.length, setCursor, act }) : null;
  return html`<tr class=${selected ? "rw-row rw-role-selected" : "rw-row"} data-row=${r3.key} tabindex=${reviewable ? "0" : null}
      onClick=${() => ctx.send({ selected: selected ? "" : r3.key })} onKeyDown=${keys}
      onFocus=${reviewable ? () => cursorCol < 0 && setCursor((c3) => ({ index, col: c3 ? c3.col : 0 })) : null}>
    <th class="rw-id" scope="row" title=${r3.text}><${IdLink} id=${r3.id} target=${r3.key} send=${ctx.send} /></th>
    ${Array.from(cells, (v3, k3) => {
    const [sym, word, cls] = CELL[v3];
    const judge = judged[k3];
    const reviewed = judge !== void 0;
    const classes = [cls, reviewed && "rw-reviewed", k3 === cursorCol && "rw-cursor"].filter(Boolean).join(" ");
    const title = `${showId(doc_ids[k3])} ${word} ${r3.id}${reviewed ? judge === v3 ? " (judge's label, confirmed)" : ` (reviewer; the judge said: ${CELL[judge][1]})` : ""}`;
    const pick = reviewable ? (e3) => {
      e3.stopPropagation();
      setCursor({ index, col: k3 });
      if (!selected) ctx.send({ selected: r3.key });
    } : null;
    return html`<td class=${classes} title=${title} data-col=${k3} onClick=${pick}>${reviewed && judge !== v3 ? html`<s class="rw-judge-label">${CELL[judge][0]}</s>${sym}` : sym}${reviewed && judge === v3 ? "✓" : null}</td>`;
  })}
  </tr>`;
});
function Grid({ caption, rows, first, m: m3, docIds, selected, ctx, cursor, reviewable, setCursor, act }) {
  return html`<table class="rw-table rw-matrix">
    <caption>${caption}</caption>
    <colgroup><col />${m3.columns.map((c3) => html`<col class=${c3.active ? null : "rw-off"} />`)}</colgroup>
    <thead><tr>
      <th class="rw-corner">Claim</th>
      ${m3.columns.map((c3, k3) => html`<th class="rw-matrix-col" scope="col"
        title=${`${showId(c3.doc_id)} (rank ${k3 + 1})${c3.active ? "" : ": switched off"}`}><${IdLink} id=${c3.doc_id} label=${String(k3 + 1)}
          target=${`source:${c3.doc_id}`} send=${ctx.send} />${c3.active ? "" : html`<span class="rw-off-mark">off</span>`}</th>`)}
    </tr></thead>
    <tbody>
      ${rows.map((r3, j3) => html`<${MatrixRow} key=${r3.key} r=${r3} buf=${m3.cells} index=${first + j3} doc_ids=${docIds}
        selected=${selected === r3.key} ctx=${ctx} cursorCol=${cursor && cursor.index === first + j3 ? cursor.col : -1}
        marks=${marksOf(m3.reviewed, first + j3)} reviewable=${reviewable} setCursor=${setCursor} act=${act} />`)}
    </tbody>
  </table>`;
}
function ReviewBar({ m: m3, cursor, ctx }) {
  const row = cursor.index < m3.response.length ? m3.response[cursor.index] : m3.gt[cursor.index - m3.response.length];
  if (!row || cursor.col >= m3.columns.length) return null;
  const target = cellTarget(m3, cursor.index, cursor.col);
  const v3 = typed(m3.cells, Int8Array)[cursor.index * m3.columns.length + cursor.col];
  const mark2 = (m3.reviewed || []).find((x2) => x2[0] === cursor.index && x2[1] === cursor.col);
  const r3 = { judge: mark2 ? mark2[2] : v3, label: v3, reviewed: !!mark2 };
  const title = `${row.id} × ${showId(target.doc_id)}`;
  return html`<div class="rw-review-bar" data-testid="review-bar">
    <span><b>${title}</b> (passage rank ${cursor.col + 1}, ${target.kind}): <${LabelShown} r=${r3} /></span>
    <${ReviewButtons} target=${target} ctx=${ctx} onWhy=${ctx.why ? () => ctx.why(target, `${title}, ${target.kind}`) : null} />
  </div>`;
}
function Overruled({ m: m3 }) {
  const cells = typed(m3.cells, Int8Array);
  const rows = [...m3.response, ...m3.gt];
  const changed = (m3.reviewed || []).filter(([i3, k3, judge]) => cells[i3 * m3.columns.length + k3] !== judge);
  if (!changed.length) return null;
  return html`<ul class="rw-overruled-list" data-testid="overruled">${changed.map(([i3, k3, judge]) => html`<li key=${`${i3}:${k3}`}>
    <b>${rows[i3].id} × ${showId(m3.columns[k3].doc_id)}</b>: the judge said <s class="rw-judge-word">${CELL[judge][0]} ${LABEL_WORD[judge]}</s>,
    the reviewer <b>${CELL[cells[i3 * m3.columns.length + k3]][0]} ${LABEL_WORD[cells[i3 * m3.columns.length + k3]]}</b></li>`)}</ul>`;
}
var LABEL_WORD = {
  [LABEL_CODES.Entailment]: "Entailment",
  [LABEL_CODES.Neutral]: "Neutral",
  [LABEL_CODES.Contradiction]: "Contradiction",
  [UNJUDGED]: "unjudged"
};
function Matrix({ m: m3, selected, ctx, reviewable = false, focusCell = null }) {
  const [open, setOpen] = d2(() => (m3.response.length + m3.gt.length) * m3.columns.length <= ON_DEMAND);
  const section = A2(null);
  _2(() => {
    if (!open && section.current?.closest?.(".rw-snapshot-view")) setOpen(true);
  }, []);
  const [cursor, setCursor] = d2(null);
  const mref = A2(m3);
  mref.current = m3;
  const wrap = A2(null);
  const pending = A2(-1);
  _2(() => {
    if (!focusCell) return;
    const index = focusCell.kind === "retrieved2response" ? focusCell.claim : m3.response.length + focusCell.claim;
    const col = m3.columns.findIndex((c3) => c3.doc_id === focusCell.doc_id);
    if (col < 0) return;
    pending.current = index;
    setOpen(true);
    setCursor({ index, col });
  }, [focusCell && focusCell.seq]);
  h2(() => {
    if (pending.current < 0 || !wrap.current) return;
    const row = wrap.current.querySelectorAll("tr[data-row]")[pending.current];
    if (row) {
      pending.current = -1;
      row.focus();
    }
  });
  const act = q2((e3, index, col) => {
    const target = cellTarget(mref.current, index, col);
    reviewKeys(e3, target, ctx, ctx.why ? () => ctx.why(target, `${target.kind} claim ${target.claim + 1} × ${showId(target.doc_id)}`) : null);
  }, [ctx]);
  const grid = { cursor, reviewable, setCursor, act };
  const docIds = T2(() => m3.columns.map((c3) => c3.doc_id), [m3.columns]);
  const [entailed, contradicted] = T2(() => {
    const cells = typed(m3.cells, Int8Array);
    let e3 = 0, c3 = 0;
    for (const v3 of cells) {
      e3 += v3 === LABEL_CODES.Entailment;
      c3 += v3 === LABEL_CODES.Contradiction;
    }
    return [e3, c3];
  }, [m3.cells]);
  const size = `${m3.response.length} response + ${m3.gt.length} ground-truth claims × ${m3.columns.length} passages`;
  return html`<section class="rw-section" data-testid="matrix" ref=${section}>
    <h4>Entailment: claims × passages</h4>
    <p class="rw-note">${size}; ${entailed} entailments, ${contradicted} contradictions. Columns are passages
      by rank (hover for the doc_id). Symbols: ● entails; ⊗ contradicts; · does not mention; ? unjudged;
      shaded columns are switched off.${reviewable ? " Reviewed: a struck-through symbol is the judge's label, overruled, the one after it the reviewer's (each listed in words under the matrix); ✓ the judge's label confirmed. Click a cell (or focus a row, ← →) and press E / N / C, A, U or W." : ""}</p>
    ${open ? html`<div class="rw-matrix-wrap" tabindex="0" role="region" aria-label="Entailment matrix" ref=${wrap}>
          <${Grid} caption="Response claims" rows=${m3.response} first=${0} m=${m3} docIds=${docIds} selected=${selected} ctx=${ctx} ...${grid} />
          ${m3.gt.length ? html`<${Grid} caption="Ground-truth claims" rows=${m3.gt} first=${m3.response.length} m=${m3} docIds=${docIds} selected=${selected} ctx=${ctx} ...${grid} />` : null}
        </div>
        ${reviewable && cursor ? html`<${ReviewBar} m=${m3} cursor=${cursor} ctx=${ctx} />` : null}
        ${reviewable ? html`<${Overruled} m=${m3} />` : null}` : html`<button type="button" class="rw-show-matrix" data-testid="show-matrix"
          onClick=${() => setOpen(true)}>Show the full matrix</button>`}
  </section>`;
}

// src/evidence.js
var SCAN = 4e3;
var STOP = new Set(`a about above after again against all also am an and any are as at be because been before
being below between both but by can could did do does doing down during each few for from further had has have
having he her here hers herself him himself his how i if in into is it its itself just me more most my myself no
nor not now of off on once only or other our ours ourselves out over own same she should so some such than that
the their theirs them themselves then there these they this those through to too under until up very was we were
what when where which while who whom why will with would you your yours yourself yourselves`.split(/\s+/));
var WORD = /\p{N}+(?:[.,]\p{N}+)*(?![\p{L}\p{N}])|[\p{L}\p{N}]+(?:['’]\p{L}+)*/gu;
function stem(word) {
  let w3 = word.toLowerCase().replace(/['’]s$/, "");
  if (STOP.has(w3)) return "";
  if (w3.length > 4 && w3.endsWith("ies")) w3 = `${w3.slice(0, -3)}y`;
  else if (w3.length > 4 && /(ch|sh|ss|x|z)es$/.test(w3)) w3 = w3.slice(0, -2);
  else if (w3.length > 3 && w3.endsWith("s") && !/(ss|us|is)$/.test(w3)) w3 = w3.slice(0, -1);
  return w3;
}
function words(text) {
  const out = [];
  for (const m3 of String(text).slice(0, SCAN).matchAll(WORD)) {
    const s3 = stem(m3[0]);
    if (s3) out.push([s3, m3.index, m3.index + m3[0].length]);
  }
  return out;
}
function contentWords(text) {
  return new Set(words(text).map(([s3]) => s3));
}
function overlap(claim, text) {
  const spans = [];
  const seen = /* @__PURE__ */ new Set();
  for (const [s3, a3, b2] of words(text)) {
    if (!claim.has(s3)) continue;
    seen.add(s3);
    spans.push([a3, b2]);
  }
  return { shared: seen.size, spans };
}
function closest(claimText, passages) {
  const claim = contentWords(claimText);
  if (!claim.size) return [];
  const rankOf = (p3) => p3.rank === null || p3.rank === void 0 ? Infinity : p3.rank;
  return passages.map((p3, i3) => ({ p: p3, i: i3, ...overlap(claim, p3.text) })).filter((x2) => x2.shared > 0).sort((x2, y3) => y3.shared - x2.shared || rankOf(x2.p) - rankOf(y3.p) || x2.i - y3.i).map(({ p: p3, shared, spans }) => ({ passage: p3, shared, of: claim.size, score: shared / claim.size, spans }));
}
function segments(text, spans) {
  const s3 = String(text);
  const out = [];
  let at = 0;
  for (const [a3, b2] of spans) {
    if (a3 > at) out.push({ text: s3.slice(at, a3), mark: false });
    out.push({ text: s3.slice(a3, b2), mark: true });
    at = b2;
  }
  if (at < s3.length) out.push({ text: s3.slice(at), mark: false });
  return out;
}
function excerptStart(text, spans, lead = 40) {
  if (!spans.length || spans[0][0] <= lead * 2) return 0;
  const from = spans[0][0] - lead;
  const space = String(text).indexOf(" ", from);
  return space >= 0 && space < spans[0][0] ? space + 1 : spans[0][0];
}

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
    ${roles.length ? html`<div class="rw-link">${roles.map((r3) => html`<span class=${`rw-badge rw-badge-${r3}`}>${ROLE_TEXT[r3] || r3}</span>`)}</div>` : null}
  </td>`;
}
function rowKeys(e3, pick, more) {
  if (e3.target !== e3.currentTarget || e3.shiftKey || e3.ctrlKey || e3.metaKey || e3.altKey) return;
  if (more && more(e3)) return;
  if (e3.key === "Enter" || e3.key === " ") {
    e3.preventDefault();
    pick();
  } else if (e3.key === "ArrowDown" || e3.key === "ArrowUp") {
    const step = (n4) => e3.key === "ArrowDown" ? n4.nextElementSibling : n4.previousElementSibling;
    let next = step(e3.currentTarget);
    while (next && !next.classList.contains("rw-row")) next = step(next);
    e3.preventDefault();
    if (next) next.focus();
  }
}
function Row({ item, selected, send, more = null, children }) {
  const pick = () => send({ selected: selected ? "" : item.key });
  const cls = ["rw-row", ...item.roles.map((r3) => `rw-role-${r3}`)].join(" ");
  return html`<tr class=${cls} tabindex="0" aria-selected=${selected ? "true" : "false"} data-key=${item.key}
    onClick=${pick} onKeyDown=${(e3) => rowKeys(e3, pick, more)}>${children}</tr>`;
}
var reviewing = (view, ctx) => !!(ctx.review && view.review);
function ReviewCell({ r: r3, kind, index, id, item, ctx }) {
  const target = { kind: r3 ? kind : ROW_KIND[kind], claim: index, doc_id: null };
  const why = whyOf(r3, kind, index, id, item, ctx);
  return html`<td class="rw-review-cell">
    ${r3 ? html`<${LabelShown} r=${r3} />` : null}
    <${ReviewButtons} target=${target} ctx=${ctx} labels=${!!r3} onWhy=${why} />
  </td>`;
}
function whyOf(r3, kind, index, id, item, ctx) {
  if (!ctx.why) return null;
  if (r3) return () => ctx.why({ kind, claim: index, doc_id: null }, `${id}, ${kind}`);
  const doc = firstPassage(item, ctx.view());
  const target = { kind: ROW_KIND[kind], claim: index, doc_id: doc };
  return doc === null ? null : () => ctx.why(target, `${id} × ${showId(doc)}, ${target.kind}`);
}
function claimKeys(review, r3, kind, index, id, item, ctx) {
  if (!review) return null;
  const target = { kind: r3 ? kind : ROW_KIND[kind], claim: index, doc_id: null };
  return (e3) => reviewKeys(e3, target, ctx, whyOf(r3, kind, index, id, item, ctx));
}
var reviewHead = (claims) => claims.some((c3) => c3.review) ? "Review (against the ground truth)" : "Review (its passages)";
var WIDTHS = {
  Rank: 3.2,
  Source: 7,
  "In context?": 6.5,
  "Question-relevant?": 8,
  "Entails claims": 8,
  "Cited by": 5,
  "Fact IDs": 5.5,
  Claim: 5.8,
  "Fact ID": 4.5,
  "Correct?": 7,
  "Faithful?": 7.8,
  "Supported by": 9,
  "Retrieved?": 5.5,
  "Entails?": 5,
  "Valid?": 4.5,
  "In the response?": 7,
  "Supported by (retrieved)": 9,
  "Review (against the ground truth)": 12,
  "Review (against the response)": 12,
  "Review (its passages)": 12
};
var TEXT_WIDTH = 14;
var minWidth = (heads) => heads.reduce((n4, t4) => n4 + (WIDTHS[t4] || TEXT_WIDTH), 0);
function Table({ heads, groupRow, cls, n: n4, children, label }) {
  const tall = n4 > 12;
  return html`<div class=${tall ? "rw-table-wrap rw-scroll" : "rw-table-wrap"} tabindex=${tall ? "0" : null}
      role=${tall ? "region" : null} aria-label=${tall ? label : null}>
    <table class=${`rw-table ${cls}${tall ? " rw-fixed" : ""}`} style=${tall ? `--rw-min-width: ${minWidth(heads)}em` : null}>
      ${tall ? html`<colgroup>${heads.map((t4) => html`<col style=${WIDTHS[t4] ? `width: ${WIDTHS[t4]}em` : null} />`)}</colgroup>` : null}
      <thead>
        ${groupRow ? html`<tr class="rw-group-row">${groupRow.map((g2) => html`<th colspan=${String(g2.span)} class=${g2.class || null}>${g2.text}</th>`)}</tr>` : null}
        <tr>${heads.map((t4) => html`<th scope="col">${t4}</th>`)}</tr>
      </thead>
      <tbody>${children}</tbody>
    </table>
  </div>`;
}
var SourceRow = memo(function SourceRow2({ s: s3, selected, sample, cites, showGt, ctx }) {
  const toggle = (e3) => {
    const inPlay = ctx.view().sources.filter((x2) => x2.retrieved).map((x2) => x2.doc_id);
    const next = e3.target.checked ? [...inPlay, s3.doc_id] : inPlay.filter((d3) => d3 !== s3.doc_id);
    ctx.send({ retrieved: next });
  };
  const send = ctx.send;
  const gt = showGt && s3.entails_gt.length;
  const entails = s3.entails_response.length || gt ? html`${idLinks(s3.entails_response, "claim", send, "")}${gt ? html`${s3.entails_response.length ? "; " : ""}ground truth ${idLinks(s3.entails_gt, "gt", send)}` : null}` : "—";
  return html`<${Row} item=${s3} selected=${selected} send=${ctx.send}>
    <td class="rw-num">${s3.rank === null ? "—" : String(s3.rank)}</td>
    <${IdCell} id=${s3.doc_id} roles=${s3.roles} />
    <td class="rw-text"><${LongText} text=${s3.text} clamp=${true} /></td>
    ${sample ? null : html`<td>${s3.facts && s3.facts.length ? s3.facts.map(showId).join(", ") : "—"}</td>`}
    <td class="rw-toggle-cell">
      <label onClick=${(e3) => e3.stopPropagation()}>
        <input type="checkbox" checked=${s3.retrieved} disabled=${!s3.toggleable}
          aria-label=${`${s3.doc_id} in the retrieved context`} data-toggle=${s3.doc_id} onChange=${toggle} />
        ${s3.retrieved ? " ✓ Yes" : " ✗ No"}
      </label>
    </td>
    ${sample ? null : html`<td><${YesNo} value=${s3.relevant} />${s3.outdated ? html`<span class="rw-outdated"> (⚠ outdated)</span>` : null}</td>`}
    <td class="rw-list">${entails}${against([["claim", s3.contradicts_response], ["gt", showGt ? s3.contradicts_gt : []]], "contradicts", send)}</td>
    ${cites ? html`<td class="rw-list">${idLinks(s3.cited_by, "claim", send)}</td>` : null}
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
      ${view.sources.map((s3) => html`<${SourceRow} key=${s3.key} s=${s3} selected=${view.selected === s3.key} sample=${sample} cites=${cites} showGt=${showGt} ctx=${ctx} />`)}
    <//>
  </section>`;
}
function below(c3) {
  const n4 = c3.supported_by.length;
  const k3 = c3.contradicted_by.length;
  if (!n4 && !k3) return "none";
  return html`<span class="rw-below">${n4 ? `${n4} passage${n4 === 1 ? "" : "s"}` : "none"}${k3 ? html`; <span class="rw-contradicts">⊗ ${k3} contradict${k3 === 1 ? "s" : ""}</span>` : null} <span class="rw-hint">(listed below ↓)</span></span>`;
}
function against(groups, words2, send) {
  const all = groups.flatMap(([prefix, items]) => (items || []).map((id) => [prefix, id]));
  return all.length ? html`<div class="rw-contradicts" title=${`${words2} (judged Contradiction, not merely not mentioned)`}><span class="rw-words">⊗ ${words2}</span> ${all.map(
    ([prefix, id], i3) => html`${i3 ? ", " : ""}<${IdLink} id=${id} target=${`${prefix}:${id}`} send=${send} />`
  )}</div>` : null;
}
function Verdict({ value, contradicted, words: words2 }) {
  if (contradicted) return html`<span class="rw-no rw-contradicted" title=${`${words2[2]} (judged Contradiction)`}>⊗ Contradicted</span>`;
  return html`<${YesNo} value=${value} words=${words2} />`;
}
var NO_PASSAGE_LABELS = html`<span class="rw-unknown" title="faithfulness is not computable: the data has no passage labels">⊘ no passage labels</span>`;
var ClaimRow = memo(function ClaimRow2({ c: c3, index, selected, hasFacts, hasCorrect, cites, review, ctx }) {
  const cits = c3.citations || [];
  const per = (f3) => cits.length ? cits.map((x2, i3) => html`${i3 ? html`<br />` : null}${f3(x2)}`) : "—";
  return html`<${Row} item=${c3} selected=${selected} send=${ctx.send} more=${claimKeys(review, c3.review, "answer2response", index, c3.id, c3, ctx)}>
    <${IdCell} id=${c3.id} roles=${c3.roles} />
    <td class="rw-text"><${LongText} text=${c3.text} />${ctx.note ? html` <button type="button" class="rw-whole"
      data-testid="claim-note" title=${`Note on claim ${c3.id} (the note box opens on it)`}
      onClick=${(e3) => {
    e3.stopPropagation();
    ctx.note(index);
  }}>✎ note</button>` : null}</td>
    ${hasFacts ? html`<td data-label="Fact ID:">${c3.facts && c3.facts.length ? c3.facts.map(showId).join(", ") : "—"}</td>` : null}
    ${hasCorrect ? html`<td class="rw-verdict-cell"><${Verdict} value=${c3.correct} contradicted=${c3.contradicted}
      words=${["Correct", "Incorrect", "the ground-truth answer contradicts it"]} /></td>` : null}
    <td class="rw-verdict-cell">${c3.faithful === null ? NO_PASSAGE_LABELS : html`<${YesNo} value=${c3.faithful} words=${["Faithful", "Unfaithful"]} />`}</td>
    <td class="rw-list" data-label="Supported by:">${c3.faithful === null ? "—" : selected ? below(c3) : html`${idLinks(c3.supported_by, "source", ctx.send, "none", { n: 3, target: c3.key })}${against([["source", c3.contradicted_by]], "contradicted by", ctx.send)}`}</td>
    ${cites ? html`<td class="rw-list" data-label="Cites:">${cits.length ? idLinks(cits.map((x2) => x2.doc_id), "source", ctx.send) : "no citation"}</td>` : null}
    ${cites ? html`<td data-label="Retrieved?">${per((x2) => html`<${YesNo} value=${x2.retrieved} />`)}</td>` : null}
    ${cites ? html`<td data-label="Entails?">${per((x2) => html`<${Verdict} value=${x2.entails} contradicted=${x2.contradicts}
      words=${["Yes", "No", `${x2.doc_id} contradicts the claim`]} />`)}</td>` : null}
    ${cites ? html`<td data-label="Valid?">${per((x2) => html`<span title=${x2.why}><${YesNo} value=${x2.valid} /></span>`)}</td>` : null}
    ${review ? html`<${ReviewCell} r=${c3.review} kind="answer2response" index=${index} id=${c3.id} item=${c3} ctx=${ctx} />` : null}
  <//>`;
});
var clampChecks = /* @__PURE__ */ new Map();
function checkClamp(box, more) {
  clampChecks.set(box, more);
  if (clampChecks.size > 1) return;
  queueMicrotask(() => {
    const jobs = [...clampChecks];
    clampChecks.clear();
    const cut = jobs.map(([b2]) => b2.isConnected && b2.scrollHeight > b2.clientHeight + 1);
    jobs.forEach(([, m3], i3) => {
      if (m3.isConnected) m3.hidden = !cut[i3];
    });
  });
}
function EvidenceText({ text, spans }) {
  const box = A2(null);
  const more = A2(null);
  const [whole, setWhole] = d2(false);
  const s3 = String(text);
  const start = whole ? 0 : excerptStart(s3, spans);
  h2(() => {
    if (start) more.current.hidden = false;
    else if (box.current && more.current && !whole) checkClamp(box.current, more.current);
  }, [text, whole, start]);
  const end = whole ? s3.length : Math.min(s3.length, start + SHOWN2);
  const pieces = segments(s3.slice(start, end), spans.filter(([, b2]) => b2 > start && b2 <= end).map(([a3, b2]) => [Math.max(a3, start) - start, b2 - start]));
  return html`<span class=${whole ? "rw-ev-text" : "rw-ev-text rw-ev-clamp"} ref=${box} data-testid="evidence-text">${start ? "…" : ""}${pieces.map((p3) => p3.mark ? html`<mark>${p3.text}</mark>` : p3.text)}${end < s3.length ? "…" : ""}</span>${whole ? html`<button type="button" class="rw-whole" aria-expanded="true" onClick=${() => setWhole(false)}>less</button>` : html`<button type="button" class="rw-whole" ref=${more} hidden=${true} aria-expanded="false" onClick=${() => setWhole(true)}>more</button>`}`;
}
var SHOWN2 = 600;
var CLOSEST = 3;
var HOW = {
  entails: ["● entails", "entails it"],
  contradicts: ["⊗ contradicts", "contradicts it (judged Contradiction)"],
  cited: ["cited, does not entail", "cited by the claim but does not entail it"],
  closest: ["≈ closest", "no judge's label: it shares these content words with the claim (lexical overlap)"]
};
function evidenceHead(item, entries, near, retrieved) {
  if (item.faithful === null) return ": none known (the data has no passage labels)";
  if (entries.length) {
    const n4 = item.supported_by.length;
    const k3 = item.contradicted_by.length;
    return ` (${n4} entail${n4 === 1 ? "s" : ""} it, ${k3} contradict${k3 === 1 ? "s" : ""} it)`;
  }
  if (!retrieved) return ": none (no passage is retrieved for this sample)";
  return near ? ": no retrieved passage entails or contradicts it" : ": no retrieved passage entails or contradicts it, or shares a content word with it";
}
function EvidenceItem({ how, d: d3, s: s3, spans, note, why, ctx }) {
  return html`<li class=${`rw-evidence-item rw-ev-${how}`} data-doc=${d3}>
    <span class="rw-ev-how" title=${HOW[how][1]}>${note || HOW[how][0]}</span>
    <${IdLink} id=${d3} target=${`source:${d3}`} send=${ctx.send} max=${14} />
    <span class="rw-ev-rank">${s3 && s3.rank !== null ? `rank ${s3.rank}` : ""}</span>
    ${s3 ? html`<${EvidenceText} text=${s3.text} spans=${spans} />` : html`<i>(not among the passages)</i>`}
    ${why ? html`<span class="rw-ev-why">citation ${why}</span>` : null}
  </li>`;
}
function Evidence({ item, sources, span, ctx }) {
  const [all, setAll] = d2(false);
  const docs = T2(() => new Map(sources.map((s3) => [s3.doc_id, s3])), [sources]);
  const claim = T2(() => contentWords(item.text), [item.text]);
  const taken = /* @__PURE__ */ new Set([...item.supported_by, ...item.contradicted_by]);
  const cites = item.citations || [];
  const cited = [...new Set(cites.map((x2) => x2.doc_id).filter((d3) => !taken.has(d3)))];
  const entries = [
    ...item.supported_by.map((d3) => ["entails", d3]),
    ...item.contradicted_by.map((d3) => ["contradicts", d3]),
    ...cited.map((d3) => ["cited", d3])
  ];
  const retrieved = sources.filter((s3) => s3.retrieved);
  const near = T2(
    () => item.supported_by.length ? [] : closest(item.text, retrieved.filter((s3) => !taken.has(s3.doc_id) && !cited.includes(s3.doc_id))),
    [item, sources]
  );
  const shown = all ? near : near.slice(0, CLOSEST);
  const why = (d3) => (cites.find((x2) => x2.doc_id === d3 && x2.why) || {}).why;
  return html`<tr class="rw-evidence-row" data-evidence=${item.key}><td colspan=${String(span)}>
    <div class="rw-evidence" data-testid="evidence">
      <div class="rw-evidence-head"><b>Passages behind ${item.id}</b>${evidenceHead(item, entries, near.length, retrieved.length)}</div>
      ${entries.length ? html`<ol class="rw-evidence-list">${entries.map(([how, d3]) => {
    const s3 = docs.get(d3);
    return html`<${EvidenceItem} key=${`${how}:${d3}`} how=${how} d=${d3} s=${s3} spans=${s3 ? overlap(claim, s3.text).spans : []}
          why=${how === "cited" ? why(d3) : null} ctx=${ctx} />`;
  })}</ol>` : null}
      ${near.length ? html`<div class="rw-evidence-head rw-ev-near-head" data-testid="closest-head">${entries.length ? "No passage entails it. " : ""}Closest retrieved passages by the words they share with it (not the judge's labels):</div>
        <ol class="rw-evidence-list" data-testid="closest">${shown.map((x2) => html`<${EvidenceItem} key=${`closest:${x2.passage.doc_id}`} how="closest"
          d=${x2.passage.doc_id} s=${x2.passage} spans=${x2.spans} note=${`≈ ${x2.shared} of ${x2.of} words`} ctx=${ctx} />`)}</ol>
        ${near.length > CLOSEST ? html`<button type="button" class="rw-whole rw-ev-all" data-testid="closest-all" aria-expanded=${all ? "true" : "false"}
          onClick=${(e3) => {
    e3.stopPropagation();
    setAll(!all);
  }}>${all ? `show the closest ${CLOSEST}` : `show all ${near.length}`}</button>` : null}` : null}
    </div>
  </td></tr>`;
}
function ClaimTable({ view, ctx }) {
  const cites = view.has_citations;
  const hasFacts = view.claims.some((c3) => c3.facts);
  const hasCorrect = view.claims.some((c3) => c3.correct !== null);
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
    cites ? "Valid?" : null,
    reviewing(view, ctx) ? reviewHead(view.claims) : null
  ].filter(Boolean);
  const before = heads.indexOf("Supported by");
  const groupRow = cites ? [{ text: "", span: before }, { text: "Retrieved context", span: 1 }, { text: "Cited source", span: 4, class: "rw-group-head" }] : null;
  const title = cites ? "Claims and citations" : `Response claims (${view.claims.length})`;
  const fit = cites ? reviewing(view, ctx) ? " rw-fit-cites-review" : " rw-fit-cites" : "";
  return html`<section class=${`rw-section rw-claims-section${fit}`} data-testid="claims">
    <h4>${title}</h4>
    <${Table} heads=${heads} groupRow=${groupRow} cls="rw-claims" n=${view.claims.length} label="Claims">
      ${view.claims.map((c3, i3) => html`<${ClaimRow} key=${c3.key} c=${c3} index=${i3} selected=${view.selected === c3.key}
        hasFacts=${hasFacts} hasCorrect=${hasCorrect} cites=${cites} review=${reviewing(view, ctx)} ctx=${ctx} />
        ${view.selected === c3.key ? html`<${Evidence} key=${`evidence:${c3.key}`} item=${c3} sources=${view.sources} span=${heads.length} ctx=${ctx} />` : null}`)}
    <//>
    ${view.claims.length ? null : html`<p class="rw-note">The answer makes no claims.</p>`}
  </section>`;
}
var GtRow = memo(function GtRow2({ g: g2, index, selected, review, ctx }) {
  return html`<${Row} item=${g2} selected=${selected} send=${ctx.send} more=${claimKeys(review, g2.review, "response2answer", index, g2.id, g2, ctx)}>
    <${IdCell} id=${g2.id} roles=${g2.roles} />
    <td class="rw-text"><${LongText} text=${g2.text} /></td>
    <td class="rw-verdict-cell"><${Verdict} value=${g2.covered} contradicted=${g2.contradicted}
      words=${["Covered", "Missed", "the response contradicts it"]} /></td>
    <td class="rw-list" data-label="Supported by:">${selected ? below(g2) : html`${idLinks(g2.supported_by, "source", ctx.send, "none", { n: 3, target: g2.key })}${against([["source", g2.contradicted_by]], "contradicted by", ctx.send)}`}</td>
    ${review ? html`<${ReviewCell} r=${g2.review} kind="response2answer" index=${index} id=${g2.id} item=${g2} ctx=${ctx} />` : null}
  <//>`;
});
function GtTable({ view, ctx }) {
  return html`<section class="rw-section rw-claims-section" data-testid="gt-claims">
    <h4>Ground-truth claims (${view.gt_claims.length})</h4>
    <${Table} heads=${["Claim", "Text", "In the response?", "Supported by (retrieved)", ...reviewing(view, ctx) ? ["Review (against the response)"] : []]}
      cls="rw-gt" n=${view.gt_claims.length} label="Ground-truth claims">
      ${view.gt_claims.map((g2, i3) => html`<${GtRow} key=${g2.key} g=${g2} index=${i3} selected=${view.selected === g2.key} review=${reviewing(view, ctx)} ctx=${ctx} />
        ${view.selected === g2.key ? html`<${Evidence} key=${`evidence:${g2.key}`} item=${g2} sources=${view.sources} span=${4 + (reviewing(view, ctx) ? 1 : 0)} ctx=${ctx} />` : null}`)}
    <//>
  </section>`;
}
function FactsTable({ view, ctx }) {
  return html`<section class="rw-section" data-testid="facts">
    <h4>Required facts</h4>
    <${Table} heads=${["Required current fact", "Fact ID", "Present in answer?", "Stated by"]} cls="rw-facts" n=${view.facts.length} label="Required facts">
      ${view.facts.map((f3) => html`<tr key=${f3.fact_id}>
        <td class="rw-text"><${LongText} text=${f3.text || f3.fact_id} /></td>
        <td class="rw-id"><${Id} id=${f3.fact_id} /></td>
        <td><${YesNo} value=${f3.present} /></td>
        <td class="rw-list">${idLinks(f3.stated_by, "claim", ctx.send)}</td>
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
function useSame(list) {
  const last = A2(list);
  if (list.length !== last.current.length || list.some((x2, i3) => x2 !== last.current[i3])) last.current = list;
  return last.current;
}
function SampleView({ view, ctx, focusCell = null }) {
  const [trace, why, closeTrace] = useTrace(ctx);
  const toggleable = useSame(view && view.sources ? view.sources.filter((s3) => s3.toggleable).map((s3) => s3.doc_id) : []);
  ctx.why = why;
  if (!view || !view.controls) return html`<div class="rw-root">Loading…</div>`;
  const review = ctx.review && view.review ? view.review : null;
  const inPlay = view.sources.filter((s3) => s3.retrieved).length;
  const gtTable = view.gt_claims.length > 0 && !view.facts.length;
  const queueKeys = review && review.queue && ctx.queue ? (e3) => {
    if ((e3.key === "]" || e3.key === "[") && !e3.target.closest("input, select, textarea")) {
      e3.preventDefault();
      ctx.queue(e3.key === "]" ? 1 : -1);
    }
  } : null;
  const strip = view.kind === "sample" && !view.predict;
  return html`<div class="rw-root" data-kind=${view.kind} onKeyDown=${queueKeys}>
    <${Header} title=${view.title} question=${view.question} state=${view.state} kind=${view.kind} />
    <${Controls} c=${view.controls} predict=${view.predict} ids=${toggleable} inPlay=${inPlay} send=${ctx.send} search=${ctx.search} />
    <p class="rw-summary" data-testid="summary">${view.summary}</p>
    ${review ? html`<${ReviewLine} review=${review} queue=${view.review.queue ? ctx.queue : null}
      focusNext=${nextLabel(view, ctx.kinds()) ? ctx.focusNext : null} />` : null}
    ${view.review_note ? html`<p class="rw-note" data-testid="review-note">${view.review_note}</p>` : null}
    <${TracePanel} answer=${trace} onClose=${closeTrace} />
    ${view.repeats ? html`<${RepeatedLabels} view=${view} />` : null}
    ${strip ? html`<${Strip} groups=${view.card_groups} missing=${view.not_computable} send=${ctx.send} />` : html`<${Cards} groups=${view.card_groups} missing=${view.not_computable} predict=${view.predict}
          predictions=${view.predictions || {}} send=${ctx.send} />`}
    ${view.kind === "sample" ? html`<${Failing} claims=${view.claims} gtClaims=${view.gt_claims} selected=${view.selected} send=${ctx.send} />` : null}
    ${strip ? null : html`<${Answer} view=${view} />`}
    ${strip ? null : html`<${SourceTable} view=${view} ctx=${ctx} showGt=${gtTable} />`}
    <${ClaimTable} view=${view} ctx=${ctx} />
    ${strip ? html`<${Answer} view=${view} />` : null}
    ${strip ? html`<${SourceTable} view=${view} ctx=${ctx} showGt=${gtTable} />` : null}
    ${strip && gtTable ? html`<${GtTable} view=${view} ctx=${ctx} />` : null}
    ${view.matrix ? html`<${Matrix} key=${view.query_id} m=${view.matrix} selected=${view.selected} ctx=${ctx} reviewable=${!!review}
      focusCell=${focusCell} />` : null}
    ${!strip && gtTable ? html`<${GtTable} view=${view} ctx=${ctx} />` : null}
    ${view.facts.length ? html`<${FactsTable} view=${view} ctx=${ctx} />` : null}
  </div>`;
}
var LIT = [
  ".rw-role-supports, .rw-role-cited, .rw-role-entailed, .rw-role-cites, .rw-role-selected",
  ".rw-role-contradicts, .rw-role-contradicted"
];
function revealLinked(el, page) {
  for (const region of el.querySelectorAll(".rw-scroll, .rw-matrix-wrap")) {
    const evidence2 = region.querySelector(".rw-evidence-row");
    if (evidence2 && evidence2.previousElementSibling) {
      const row2 = evidence2.previousElementSibling;
      const head2 = region.querySelector("thead");
      const top2 = row2.getBoundingClientRect().top - region.getBoundingClientRect().top;
      region.scrollTop += top2 - (head2 ? head2.getBoundingClientRect().height : 0);
      continue;
    }
    const row = region.querySelector(LIT[0]) || region.querySelector(LIT[1]);
    if (!row) continue;
    const head = region.querySelector("thead");
    const top = row.getBoundingClientRect().top - region.getBoundingClientRect().top;
    const headHeight = head ? head.getBoundingClientRect().height : 0;
    if (top < headHeight || top + row.getBoundingClientRect().height > region.clientHeight) {
      region.scrollTop += top - headHeight - 4;
    }
  }
  const evidence = el.querySelector(".rw-evidence-row");
  if (page && evidence) {
    requestAnimationFrame(() => evidence.isConnected && showOnPage(el, evidence.previousElementSibling, evidence, evidence.closest(".rw-scroll")));
  }
}
function showOnPage(el, top, bottom, region) {
  if (!top) return;
  let pane = el.parentElement;
  while (pane && !(pane.scrollHeight > pane.clientHeight && /(auto|scroll)/.test(getComputedStyle(pane).overflowY))) pane = pane.parentElement;
  pane = pane || document.scrollingElement;
  if (!pane) return;
  const box = pane === document.scrollingElement ? { top: 0, bottom: innerHeight } : pane.getBoundingClientRect();
  const a3 = top.getBoundingClientRect().top - box.top;
  const end = Math.min(bottom.getBoundingClientRect().bottom, region ? region.getBoundingClientRect().bottom : Infinity);
  const b2 = end - box.bottom;
  if (a3 < 0) pane.scrollTop += a3;
  else if (b2 > 0) pane.scrollTop += Math.min(a3, b2);
}
function focusRow(el, view, t4) {
  const item = t4.kind === "answer2response" ? view.claims[t4.claim] : view.gt_claims[t4.claim];
  const table = t4.kind === "answer2response" ? "claims" : "gt-claims";
  const row = item && [...el.querySelectorAll(`[data-testid="${table}"] tr.rw-row`)].find((r3) => r3.dataset.key === item.key);
  if (row) row.focus();
  return !!row;
}
function holdFocus(el) {
  const root = el.querySelector(".rw-root");
  if (!root || root.contains(document.activeElement)) return;
  root.tabIndex = -1;
  root.focus({ preventScroll: true });
}
function RepeatedLabels({ view }) {
  const { n: n4, labels } = view.repeats;
  const claims = { response: view.claims, ground_truth: view.gt_claims };
  if (!labels.length) return html`<p class="rw-note" data-testid="repeated-labels">The judge's ${n4} repeats agree on every label of this sample.</p>`;
  return html`<details class="rw-note" open data-testid="repeated-labels">
    <summary>${labels.length} label${labels.length === 1 ? "" : "s"} the judge gave differently across its ${n4} repeats</summary>
    <ul>${labels.map((l3) => {
    const claim = (claims[l3.side] || [])[l3.claim];
    return html`<li><span class="rw-id">${claim ? claim.id : `claim ${l3.claim + 1}`}</span> ${claim ? `“${claim.text}”` : ""}
        ${l3.doc_id === null ? l3.side === "response" ? " against the reference answer" : " against the response" : html` × <span class="rw-id">${l3.doc_id}</span>`}: ${l3.said}</li>`;
  })}</ul></details>`;
}
function mountSampleView(el, {
  view,
  send,
  search = null,
  review = null,
  trace = null,
  queue = null,
  queued = null,
  kinds = () => null,
  keys = null,
  note = null
}) {
  let current = null;
  let first = true;
  let label = null;
  let engaged = false;
  let focusCell = null;
  let seq = 0;
  const widget = () => el.closest(".rw-widget") || el;
  const ctx = { send, search, review, trace, queue, kinds, note, view: () => current };
  const unkeep = keepKeys(el);
  const mayFocus = () => {
    const a3 = document.activeElement;
    if (!a3 || a3 === document.body) return engaged;
    return !a3.closest("input, select, textarea") && widget().contains(a3);
  };
  const focusLabel = (t4) => {
    if (!PASSAGE_KINDS.includes(t4.kind)) return focusRow(el, current, t4);
    focusCell = { ...t4, seq: ++seq };
    return false;
  };
  ctx.focusNext = () => {
    const t4 = nextLabel(current, kinds());
    if (t4 && !focusLabel(t4)) draw(current);
  };
  const onKey = (e3) => {
    engaged = true;
    if (keys && !forHost(e3) && !e3.defaultPrevented && !e3.target.closest("input, select, textarea")) keys(e3);
  };
  const onDown = () => {
    engaged = true;
  };
  const onOut = (e3) => {
    if (e3.relatedTarget && !widget().contains(e3.relatedTarget)) engaged = false;
  };
  el.addEventListener("keydown", onKey);
  el.addEventListener("pointerdown", onDown);
  el.addEventListener("focusout", onOut);
  const draw = (next) => {
    const before = current && current.selected;
    current = share(current, next);
    const t4 = current && current.review ? nextLabel(current, kinds()) : null;
    const now = current && current.review ? `${current.query_id}\0${t4 ? `${t4.kind}/${t4.claim}/${t4.doc_id}` : "done"}` : null;
    const go = now !== null && now !== label && mayFocus();
    const finished = go && !t4 && label !== null && label.startsWith(`${current.query_id}\0`);
    label = now;
    if (go && t4 && PASSAGE_KINDS.includes(t4.kind)) focusLabel(t4);
    R(html`<${SampleView} view=${current} ctx=${ctx} focusCell=${focusCell} />`, el);
    if (go && t4 && !PASSAGE_KINDS.includes(t4.kind)) focusLabel(t4);
    if (go && !t4) holdFocus(el);
    if (current && current.selected && current.selected !== before) revealLinked(el, !first);
    first = false;
    const q3 = queued ? queued() : current && current.review && current.review.queue;
    if (finished && queue && q3 && q3.query_id === current.query_id && q3.position < q3.total - 1) queue(1);
  };
  draw(view);
  return {
    update: draw,
    destroy() {
      unkeep();
      el.removeEventListener("keydown", onKey);
      el.removeEventListener("pointerdown", onDown);
      el.removeEventListener("focusout", onOut);
      R(null, el);
    }
  };
}

// src/selection.js
function highlights(view, selected) {
  const out = {};
  const mark2 = (key, role) => (out[key] || (out[key] = [])).push(role);
  if (!selected) return out;
  const at = selected.indexOf(":");
  const kind = at < 0 ? selected : selected.slice(0, at);
  const ident = at < 0 ? "" : selected.slice(at + 1);
  mark2(selected, "selected");
  if (kind === "claim" || kind === "gt") {
    for (const c3 of kind === "claim" ? view.claims : view.gt_claims) {
      if (c3.id !== ident) continue;
      for (const d3 of c3.supported_by) mark2(`source:${d3}`, "supports");
      for (const d3 of c3.contradicted_by) mark2(`source:${d3}`, "contradicts");
      if (kind === "claim") for (const cit of c3.citations || []) mark2(`source:${cit.doc_id}`, "cited");
    }
  } else if (kind === "source") {
    for (const p3 of view.sources) {
      if (p3.doc_id !== ident) continue;
      for (const r3 of p3.entails_response) mark2(`claim:${r3}`, "entailed");
      for (const g2 of p3.entails_gt) mark2(`gt:${g2}`, "entailed");
      for (const r3 of p3.contradicts_response) mark2(`claim:${r3}`, "contradicted");
      for (const g2 of p3.contradicts_gt) mark2(`gt:${g2}`, "contradicted");
    }
    for (const c3 of view.claims) {
      if ((c3.citations || []).some((cit) => cit.doc_id === ident)) mark2(`claim:${c3.id}`, "cites");
    }
  }
  return out;
}
var same = (a3, b2) => a3.length === b2.length && a3.every((x2, i3) => x2 === b2[i3]);
function withSelection(view, selected) {
  if (!view || !view.sources || !view.claims || !view.gt_claims) return view;
  if (view.selected === selected) return view;
  const lit = highlights(view, selected);
  const relit = (items) => {
    let changed = false;
    const out = items.map((x2) => {
      const roles = lit[x2.key] || [];
      if (same(roles, x2.roles)) return x2;
      changed = true;
      return { ...x2, roles };
    });
    return changed ? out : items;
  };
  return { ...view, selected, sources: relit(view.sources), claims: relit(view.claims), gt_claims: relit(view.gt_claims) };
}

// src/dataset/notes.js
var NOTE_KEY = "m";
var SUGGESTED = 8;
var splitTags = (text) => [...new Set(text.split(",").map((t4) => t4.trim().replace(/\s+/g, " ")).filter(Boolean))];
function toggleTag(text, tag) {
  const tags = splitTags(text);
  return (tags.includes(tag) ? tags.filter((t4) => t4 !== tag) : [...tags, tag]).join(", ");
}
var noteOn = (shown, on) => (shown ? on === "" ? shown.sample : shown.claims[on] : null) || null;
function focusNoteBox(from) {
  const root = from && from.closest ? from.closest(".rw-ds, .rw-widget") : null;
  const box = root && root.querySelector('[data-testid="note-text"]');
  if (!box) return false;
  box.focus();
  return true;
}
function NoteBox({ notes, claims, request, opened = null }) {
  const sample = notes && notes.query_id ? `${notes.run}\0${notes.query_id}` : "";
  const [on, setOn] = d2("");
  const [text, setText] = d2("");
  const [tags, setTags] = d2("");
  const [state, setState] = d2("");
  const dirty = A2(false);
  const pending = A2(false);
  const shownFor = A2({ sample: null, on: "" });
  const viewFor = A2(notes);
  const textBox = A2(null);
  const tagsBox = A2(null);
  h2(() => {
    if (!opened) return;
    setOn(String(opened.claim));
    if (textBox.current) textBox.current.focus();
  }, [opened]);
  _2(() => {
    const last = shownFor.current;
    const redrawn = viewFor.current !== notes;
    viewFor.current = notes;
    if (pending.current && redrawn && last.sample === sample) {
      pending.current = false;
      setState("nothing after this sample: its saved note is shown");
      if (dirty.current) return;
      const mine2 = noteOn(notes && notes.shown, on);
      setText(mine2 ? mine2.note : "");
      setTags(mine2 ? mine2.tags.join(", ") : "");
      return;
    }
    if (last.sample === sample && last.on === on) return;
    if (last.sample !== sample && on !== "") {
      setOn("");
      return;
    }
    shownFor.current = { sample, on };
    if (last.sample === sample && (pending.current || dirty.current)) return;
    if (last.sample !== sample && pending.current && dirty.current) {
      pending.current = false;
      return;
    }
    if (!pending.current || last.sample === sample) setState("");
    pending.current = false;
    dirty.current = false;
    const mine = noteOn(notes && notes.shown, on);
    setText(mine ? mine.note : "");
    setTags(mine ? mine.tags.join(", ") : "");
  });
  if (!notes) return null;
  if (!notes.available) return html`<div class="rw-hint" data-testid="notes-unavailable">${notes.said}</div>`;
  if (!notes.query_id) return null;
  const edit = (set) => (e3) => {
    dirty.current = true;
    set(e3.target.value);
  };
  const save = (advance) => {
    if (pending.current) {
      setState("waiting for the next sample…");
      return;
    }
    const back = { text: textBox.current.value, tags: tagsBox.current.value, on };
    const sent = { query_id: notes.query_id, run: notes.run, note: back.text, tags: splitTags(back.tags), advance };
    if (on !== "") sent.claim = Number(on);
    dirty.current = false;
    if (advance) {
      pending.current = true;
      setText("");
      setTags("");
      setOn("");
      textBox.current.focus();
    }
    setState("saving");
    request("note", sent).then(
      () => setState(`saved ${showId(sent.query_id)}${sent.claim === void 0 ? "" : ` claim ${sent.claim + 1}`}`),
      (err) => {
        pending.current = false;
        if (dirty.current) {
          setState(`not saved: ${err.message} · the note was: ${back.text}${back.tags ? ` (tags: ${back.tags})` : ""}`);
          return;
        }
        dirty.current = true;
        setText(back.text);
        setTags(back.tags);
        setOn(back.on);
        setState(`not saved: ${err.message}`);
      }
    );
  };
  const onKey = (e3) => {
    if (e3.isComposing || e3.keyCode === 229) return;
    if (e3.key === "Enter" && !e3.shiftKey && !e3.ctrlKey && !e3.metaKey && !e3.altKey) {
      e3.preventDefault();
      e3.stopPropagation();
      save(1);
    } else if (e3.key === "Enter" && e3.shiftKey) {
      e3.stopPropagation();
    } else if (e3.key === "Escape") {
      e3.preventDefault();
      e3.stopPropagation();
      const root = e3.target.closest(".rw-ds, .rw-widget");
      if (root) root.focus();
    }
  };
  const suggested = notes.tags.slice(0, SUGGESTED);
  const chosen = splitTags(tags);
  const list = `rw-note-tags-${notes.run}`.replace(/[^\w-]/g, "_");
  const refused = state.startsWith("not saved");
  const hint2 = state === "saving" ? "saving…" : refused ? "" : state;
  return html`<div class="rw-ds-note" data-testid="note-box" style="padding: 3px 6px; border-bottom: 1px solid var(--rw-border);">
    <div style="display: flex; gap: 4px; align-items: flex-start; flex-wrap: wrap;">
      <select data-testid="note-on" value=${on} title="What the note is on" style="max-width: 12em; min-width: 0;"
        onChange=${(e3) => {
    setOn(e3.target.value);
  }}>
        <option value="">Note: this sample</option>
        ${(claims || []).map((c3, i3) => html`<option value=${String(i3)}>${`Note: claim ${i3 + 1}, ${c3.text.slice(0, 60)}`}${noteOn(notes.shown, String(i3)) ? " ✎" : ""}</option>`)}
      </select>
      <textarea ref=${textBox} data-testid="note-text" rows=${Math.min(4, text.split("\n").length)}
        style="flex: 3 1 14em; min-width: 0; box-sizing: border-box; resize: vertical;"
        placeholder=${`What went wrong? (${NOTE_KEY}; Enter: next)`}
        title=${`Key ${NOTE_KEY} comes here · Enter saves and opens the next sample · Shift+Enter: a new line · Esc leaves`}
        aria-label="failure note" value=${text} onInput=${edit(setText)} onKeyDown=${onKey} />
      <input ref=${tagsBox} type="text" data-testid="note-tags" list=${list} value=${tags} style="flex: 1 1 9em; min-width: 0;"
        placeholder="tags, comma-separated" aria-label="tags (failure modes), comma-separated" onInput=${edit(setTags)} onKeyDown=${onKey} />
      <datalist id=${list}>${notes.tags.map((t4) => html`<option value=${t4} />`)}</datalist>
      <button type="button" data-testid="note-save" onClick=${() => save(0)} title="Save, stay on this sample">Save</button>
    </div>
    <div class="rw-hint" style="display: flex; gap: 4px; align-items: center; flex-wrap: wrap; font-size: 0.9em;">
      ${suggested.map((t4) => html`<button type="button" class=${`rw-ds-chip${chosen.includes(t4) ? " rw-ds-on" : ""}`}
        data-testid="note-tag-chip" title=${chosen.includes(t4) ? `Take tag ${t4} off` : `Add tag ${t4}`}
        onClick=${() => {
    dirty.current = true;
    setTags(toggleTag(tags, t4));
  }}>${t4}</button>`)}
      <span data-testid="note-state" aria-live="polite">${hint2}</span>
      <span style="overflow-wrap: anywhere; min-width: 0;">${notes.file}</span>
    </div>
    ${refused ? html`<div class="rw-ds-error" role="alert" data-testid="note-error" style="overflow-wrap: anywhere;">${state}</div>` : ""}
  </div>`;
}
function Reading({ part, request }) {
  const r3 = part.notes.reading;
  const step = (by) => request("reading", { step: by }).catch(() => null);
  return html`<div class="rw-ds-queue" role="status" data-testid="reading">
    <b data-testid="reading-line">${r3.line}</b>${r3.run ? ` · run ${showId(r3.run)}` : ""} · <span class="rw-hint"
      data-testid="reading-file">${r3.file}</span>
    <button type="button" onClick=${() => step(-1)} disabled=${r3.position === 0} title="Previous to read">◀</button>
    <button type="button" onClick=${() => step(1)} disabled=${r3.position >= r3.total - 1} title="Next to read"
      data-testid="reading-next">▶</button>
    <span class="rw-hint">${` press ${NOTE_KEY} to write a note`}</span>
  </div>`;
}
var panel8 = {
  key: "notes",
  place: "above",
  shows: (view) => !!(view.notes && view.notes.reading),
  part: (view) => ({ notes: view.notes }),
  traits: [],
  Panel: Reading
};

// src/dataset/drill.js
async function copyText(text, input) {
  try {
    await navigator.clipboard.writeText(text);
    return "copied";
  } catch {
    if (input) {
      input.value = text;
      input.hidden = false;
      input.focus();
      input.select();
    }
    return "selected: press Ctrl+C (⌘C) to copy";
  }
}
function navigate(e3, step, queue) {
  if (e3.target.closest("input, select, textarea")) return false;
  if (e3.key === NOTE_KEY && focusNoteBox(e3.target)) {
    e3.preventDefault();
    return true;
  }
  const by = { j: 1, ArrowDown: 1, k: -1, ArrowUp: -1 }[e3.key];
  if (by) {
    e3.preventDefault();
    step(by);
    return true;
  }
  if (queue && (e3.key === "]" || e3.key === "[")) {
    e3.preventDefault();
    queue(e3.key === "]" ? 1 : -1);
    return true;
  }
  return false;
}
var selectable = (view) => new Set([...view.sources, ...view.claims, ...view.gt_claims].map((x2) => x2.key));
function keptSelection(kept, view) {
  const sample = `${view.title}\0${view.query_id}`;
  const same2 = kept && kept.sample === sample && (!kept.selected || selectable(view).has(kept.selected));
  return { sample, selected: same2 ? kept.selected : "" };
}
function Drill({ part, request }) {
  const { drill, other, selected: sel, count, notes } = part;
  const queued = A2(null);
  queued.current = part.queue;
  const main = A2(null);
  const otherRef = A2(null);
  const mounted = A2({});
  const kept = A2({});
  const latest = A2({});
  const [failed, setFailed] = d2("");
  const [opened, setOpened] = d2(null);
  const drillAsk = (name, msg) => request(name, msg).then(
    (reply) => {
      setFailed("");
      return reply;
    },
    (err) => {
      setFailed(`${name === "drill" ? "the drill-down" : name} failed: ${err.message}`);
      return null;
    }
  );
  const shown = (which, next) => {
    latest.current[which] = next;
    kept.current[which] = keptSelection(kept.current[which], next);
    return withSelection(next, kept.current[which].selected);
  };
  const sync = (which, ref, next) => {
    const m3 = mounted.current[which];
    if (!next) {
      if (m3) {
        m3.destroy();
        delete mounted.current[which];
      }
      delete kept.current[which];
      delete latest.current[which];
      return;
    }
    if (m3) m3.update(shown(which, next));
    else if (ref.current) {
      const send = ({ selected, ...patch }) => {
        if (selected !== void 0) {
          kept.current[which].selected = selected;
          mounted.current[which].update(withSelection(latest.current[which], selected));
        }
        if (Object.keys(patch).length) drillAsk("drill", { which, patch });
      };
      const queue = (by) => queued.current ? drillAsk("queue", { step: by }) : null;
      const isMain = which === "main";
      mounted.current[which] = mountSampleView(ref.current, {
        view: shown(which, next),
        send,
        queue: isMain ? queue : null,
        queued: isMain ? () => queued.current : null,
        kinds: () => queued.current ? queued.current.kinds : null,
        note: isMain && notes && notes.available ? (claim) => setOpened({ claim, seq: Date.now() }) : null,
        keys: (e3) => !(e3.key.startsWith("Arrow") && e3.target.matches(".rw-scroll, .rw-matrix-wrap")) && navigate(e3, (by) => request("step", { delta: by }).catch(() => null), queued.current ? queue : null),
        review: (action) => drillAsk("review", { which, ...action }),
        trace: (target) => request("trace", { which, ...target }).catch((err) => ({ trace: null, reason: `the trace request failed: ${err.message}` }))
      });
    }
  };
  h2(() => {
    sync("main", main, drill);
    sync("other", otherRef, other);
  });
  h2(() => () => Object.values(mounted.current).forEach((m3) => m3.destroy()), []);
  const copyBox = A2(null);
  const [copied, setCopied] = d2("");
  h2(() => {
    setCopied("");
    setFailed("");
  }, [sel.row]);
  const step = (delta) => request("step", { delta }).catch(() => null);
  return html`<div class="rw-ds-drill" data-testid="drill">
    <div class="rw-ds-drill-bar">
      <button onClick=${() => step(-1)} title="Previous row (↑ or k)">◀</button>
      <button onClick=${() => step(1)} title="Next row (↓ or j)">▶</button>
      <span class="rw-hint">${sel.row < 0 ? "Select a row (or press ↓) to open the sample." : `${sel.run ? showId(sel.run) + " · " : ""}${showId(sel.query_id)} · row ${sel.index + 1} of ${count}${sel.index < 0 ? " (not among the rows shown)" : ""}`}</span>
      ${sel.row >= 0 ? html`<button data-testid="copy-id" title="Copy this sample's query_id"
          onClick=${() => copyText(sel.query_id, copyBox.current).then(setCopied)}>Copy query_id</button>
        <input ref=${copyBox} class="rw-ds-copy" readonly hidden data-testid="copy-box" aria-label="query_id" />
        ${copied ? html`<span class="rw-hint" role="status">${copied}</span>` : ""}` : ""}
    </div>
    ${failed ? html`<div class="rw-ds-error" role="alert" data-testid="drill-error">${failed}</div>` : ""}
    ${sel.row >= 0 ? html`<${NoteBox} key="notes" notes=${notes} claims=${drill ? drill.claims : null} request=${request}
      opened=${opened} />` : ""}
    <div class="rw-ds-drill-views" key="views">
      <div class="rw-ds-drill-view" ref=${main} data-testid="drill-main" />
      ${other ? html`<div class="rw-ds-drill-view" ref=${otherRef} data-testid="drill-other" />` : ""}
    </div>
  </div>`;
}
var panel9 = {
  key: "drill",
  place: "detail",
  shows: () => true,
  part: (view, views) => ({
    drill: views._drill,
    other: views._other,
    selected: view.selected,
    count: view.count,
    queue: view.queue || null,
    notes: view.notes || null
  }),
  traits: [],
  Panel: Drill
};

// src/dataset/export.js
function Actions({ part, request }) {
  const { count, cluster } = part;
  const [path, setPath] = d2("");
  const [said2, setSaid] = d2("");
  const act = (name, msg, fallback) => {
    setSaid("…");
    request(name, { ...msg, path: path.trim() || fallback }).catch(() => null).then((reply) => setSaid(reply ? reply.said : ""));
  };
  const n4 = count.toLocaleString("en-US");
  return html`<div class="rw-ds-panel rw-ds-actions" data-testid="actions">
    <label>file (a new name in the explorer's folder) <input type="text" value=${path} data-testid="path"
      placeholder="slices.json · rows.csv · rows.parquet · claims.parquet" onInput=${(e3) => setPath(e3.target.value)} /></label>
    <div class="rw-ds-act-buttons">
      ${cluster ? "" : html`<button data-testid="save-slices" onClick=${() => act("save_slices", {}, "slices.json")}>Save the slices</button>
      <button data-testid="load-slices" onClick=${() => act("load_slices", {}, "slices.json")}>Load slices</button>`}
      <button data-testid="export-csv" onClick=${() => act("export", { format: "csv" }, "rows.csv")}>Write the ${n4} rows as CSV</button>
      <button data-testid="export-parquet" onClick=${() => act("export", { format: "parquet" }, "rows.parquet")}>… as Parquet</button>
      ${cluster ? "" : html`<button data-testid="export-claims" title="one row per claim: every label, the passages behind it, hallucinated / noise-led (.csv, .parquet or .jsonl by the file's suffix)"
        onClick=${() => act("export_claims", {}, "claims.parquet")}>… their claims</button>`}
    </div>
    ${said2 ? html`<p class="rw-hint" role="status" data-testid="act-said">${said2}</p>` : ""}
  </div>`;
}
var panel10 = {
  key: "act",
  title: "Save · export",
  place: "tab",
  shows: () => true,
  part: (view) => ({ count: view.count, cluster: !!view.cluster }),
  traits: [],
  Panel: Actions
};

// src/dataset/queue.js
function Queue({ part, request }) {
  const q3 = part.queue;
  h2(() => {
    if (q3.interval !== null) return void 0;
    const t4 = setTimeout(() => request("queue_interval").catch(() => null), PAUSE);
    return () => clearTimeout(t4);
  });
  const step = (by) => request("queue", { step: by }).catch(() => null);
  const dot = " · ";
  return html`<div class="rw-ds-queue" role="status" data-testid="queue">
    <b>Review queue</b>${` (${q3.strategy}${q3.run ? `, over run ${showId(q3.run)}` : ""}): `}
    <b data-testid="queue-progress">${q3.line}</b>${dot}<span data-testid="queue-interval">${q3.interval === null ? "interval …" : q3.interval}</span>${dot}<span
      class="rw-hint" data-testid="queue-file">${q3.file}</span>${dot}${q3.total ? `sample ${q3.position + 1} of ${q3.total}${q3.query_id === null ? "" : ` (${showId(q3.query_id)})`} ` : ""}${q3.double ? html`<b data-testid="queue-double">${q3.double}</b> ` : ""}
    <button type="button" onClick=${() => step(-1)} disabled=${q3.position === 0} title="Previous in the queue ([)">◀</button>
    <button type="button" onClick=${() => step(1)} disabled=${q3.position >= q3.total - 1} title="Next in the queue (])"
      data-testid="queue-next">▶</button>
    ${q3.note ? html`<span class="rw-hint">${` ${q3.note}`}</span>` : ""}
  </div>`;
}
var panel11 = {
  key: "queue",
  place: "above",
  shows: (view) => !!view.queue,
  part: (view) => ({ queue: view.queue }),
  traits: [],
  Panel: Queue
};

// src/request.js
var TIMEOUT_MS = 2e4;
var counter = 0;
var RequestError = class extends Error {
  constructor(message, reply = null) {
    super(message);
    this.name = "RequestError";
    this.reply = reply;
  }
};
function requester(model, { timeoutMs = TIMEOUT_MS } = {}) {
  const waiting = /* @__PURE__ */ new Map();
  const settle = (request) => {
    const w3 = waiting.get(request);
    waiting.delete(request);
    clearTimeout(w3.timer);
    return w3;
  };
  const listener = (msg, buffers) => {
    if (!msg || !waiting.has(msg.request)) return;
    const w3 = settle(msg.request);
    if (msg.error) w3.reject(new RequestError(String(msg.error), msg));
    else w3.resolve({ ...msg, buffers: buffers || [] });
  };
  model.on("msg:custom", listener);
  const ask = (msg, { timeoutMs: limit = timeoutMs } = {}) => new Promise((resolve, reject) => {
    counter += 1;
    const request = counter;
    const timer = setTimeout(() => {
      settle(request);
      reject(new RequestError(`no reply to "${msg.type}" from the kernel in ${limit / 1e3} s`));
    }, limit);
    waiting.set(request, { resolve, reject, timer });
    try {
      model.send({ ...msg, request });
    } catch (err) {
      settle(request);
      reject(new RequestError(`could not send "${msg.type}": ${err.message}`));
    }
  });
  const stop = () => {
    model.off("msg:custom", listener);
    for (const request of [...waiting.keys()]) settle(request).reject(new RequestError("the widget was closed"));
  };
  return { ask, stop, waiting };
}

// src/dataset/rows.js
var WINDOW = 200;
function decodeRows(header, buffers) {
  const numeric = header.numeric.map((_3, i3) => typed(buffers[i3], Float64Array));
  const status = header.status.map((_3, i3) => typed(buffers[header.numeric.length + i3], Int8Array));
  return header.positions.map((position, r3) => ({
    position,
    run: header.run[r3],
    query_id: header.query_id[r3],
    query: header.query[r3],
    values: Object.fromEntries(header.numeric.map((name, c3) => [name, numeric[c3][r3]])),
    status: Object.fromEntries(header.status.map((name, c3) => [name, status[c3][r3]]))
  }));
}
var Requests = class {
  constructor(model, onReply, options) {
    this.onReply = onReply;
    this.error = "";
    const { ask, stop, waiting } = requester(model, options);
    this.waiting = waiting;
    this.stop = stop;
    this.ask = (msg) => ask(msg).then(
      (reply) => {
        this.error = "";
        this.onReply(reply);
        return reply;
      },
      (err) => {
        this.error = err.message;
        this.onReply(err.reply);
        throw err;
      }
    );
  }
  /** `ask(msg)` whose failure only shows as `error`: a promise of the reply, or null when it failed. */
  send(msg) {
    return this.ask(msg).catch(() => null);
  }
  destroy() {
    this.stop();
  }
};
function decodeSeed(seed) {
  if (!seed || !seed.positions) return [];
  const numeric = seed.values.map((col) => Float64Array.from(col, (v3) => v3 === null ? NaN : v3));
  return decodeRows(seed, [...numeric, ...seed.codes.map((col) => Int8Array.from(col))]);
}
var RowStore = class {
  constructor(model, onRows) {
    this.onRows = onRows;
    this.requests = new Requests(model, (reply) => {
      const news = reply && !this.answered || this.requests.error !== this.said;
      if (reply) this.answered = true;
      this.said = this.requests.error;
      if (news) this.onRows();
    });
    this.said = "";
    this.answered = false;
    this.changes = null;
    this.version = -1;
    this.rows = /* @__PURE__ */ new Map();
    this.seeded = 0;
    this.loaded = /* @__PURE__ */ new Set();
    this.pending = /* @__PURE__ */ new Set();
    this.failed = /* @__PURE__ */ new Map();
    this.later = /* @__PURE__ */ new Map();
  }
  /** A new order (filter, sort): forget the rows of the old one, take those a reply already
   * brought for this one, and the saved first rows when they are of this order. */
  reset(version, seed, changes) {
    if (changes && changes !== this.changes && changes.version === version) {
      this.changes = changes;
      if (version === this.version) this.patch(changes);
    }
    if (version === this.version) return;
    this.version = version;
    this.rows.clear();
    this.loaded.clear();
    this.pending.clear();
    this.failed.clear();
    this.seeded = 0;
    if (seed && seed.version === version) {
      decodeSeed(seed).forEach((row, i3) => this.rows.set(i3, row));
      this.seeded = seed.positions.length;
    }
    for (const [v3, windows] of this.later) {
      if (v3 < version) this.later.delete(v3);
      if (v3 !== version) continue;
      for (const [start, rows] of windows) this.take(start, rows);
      this.later.delete(v3);
    }
    if (this.changes && this.changes.version === version) this.patch(this.changes);
  }
  /** The rows a review changed, each in its place (their windows stay as they were: loaded or not). */
  patch(changes) {
    for (const part of changes.rows) decodeSeed(part).forEach((row, i3) => this.rows.set(part.start + i3, row));
  }
  take(start, rows) {
    rows.forEach((row, i3) => this.rows.set(start + i3, row));
    this.loaded.add(start);
    this.pending.delete(start);
    this.failed.delete(start);
  }
  get(index) {
    return this.rows.get(index);
  }
  /** Why the window holding row `index` was refused in this version ("" when it was not). */
  failedAt(index) {
    return this.failed.get(Math.floor(index / WINDOW) * WINDOW) || "";
  }
  /** Ask for the windows that hold rows first..last that have not come yet. A window the kernel
   * refused is not asked again in this version (its error shows in its rows instead); one that got
   * no reply in time is asked again at the next draw. */
  ensure(first, last, count) {
    if (count <= 0) return;
    for (let start = Math.floor(first / WINDOW) * WINDOW; start <= last && start < count; start += WINDOW) {
      if (this.pending.has(start) || this.loaded.has(start)) continue;
      this.pending.add(start);
      const version = this.version;
      this.requests.ask({ type: "rows", start, count: WINDOW }).then((msg) => {
        if (msg.version === this.version) this.take(msg.start, decodeRows(msg, msg.buffers));
        else if (msg.version > this.version) {
          if (!this.later.has(msg.version)) this.later.set(msg.version, /* @__PURE__ */ new Map());
          this.later.get(msg.version).set(msg.start, decodeRows(msg, msg.buffers));
        }
        this.onRows();
      }, (err) => {
        if (version !== this.version) return;
        if (err.reply) this.failed.set(start, err.message);
        else this.pending.delete(start);
        this.onRows();
      });
    }
  }
  destroy() {
    this.requests.destroy();
  }
};

// src/dataset/slices.js
function Slices({ part, set, request }) {
  const { slices, active, expression } = part;
  const save = () => {
    const name = globalThis.prompt && globalThis.prompt("Name this slice") || "";
    if (name.trim() && expression.trim()) request("add_slice", { name, expression }).catch(() => null);
  };
  return html`<div class="rw-ds-slices" data-testid="slices"><span class="rw-hint">Failure slices</span>
    ${slices.map((s3) => html`<button title=${`${s3.description}
${s3.expression}`}
        class=${active === s3.name ? "rw-active" : ""} onClick=${() => set({ slice: active === s3.name ? "" : s3.name })}>
        ${s3.name} <span class="rw-ds-count">${s3.size}</span></button>`)}
      <button disabled=${!expression.trim()} onClick=${save} title="Save the filter expression as a named slice">+ slice from filter</button>
    </div>`;
}
var panel12 = {
  key: "slices",
  place: "master",
  shows: (view) => !view.cluster,
  part: (view) => ({ slices: view.slices, active: view.controls.slice, expression: view.controls.expression }),
  traits: ["slice"],
  Panel: Slices
};

// src/dataset/summary.js
function Repeats({ repeats, labelOf }) {
  const runs = Object.entries(repeats || {});
  if (!runs.length) return "";
  const range = (lo, hi) => lo === null || lo === void 0 ? "Undefined" : `${fmt(lo, 3)}–${fmt(hi, 3)}`;
  return html`<div class="rw-ds-wide" data-testid="repeats">${runs.map(([run, r3]) => html`<table class="rw-table">
    <caption>${`${run}: judged ${r3.n_repeats} times (labels by ${r3.policy}); ${r3.flaky.toLocaleString("en-US")} of ${r3.samples.toLocaleString("en-US")} samples flaky (a metric changes across repeats; slice "flaky labels"); labels that flip: ${r3.labels.map((l3) => `${l3.kind} ${fmt(100 * l3.share, 1)}% of ${l3.labels.toLocaleString("en-US")}` + (l3.pair_share === null || l3.pair_share === void 0 ? "" : ` (${fmt(100 * l3.pair_share, 1)}% per pair of repeats)`)).join(", ") || "none"}`}</caption>
    <thead><tr><th>metric</th><th>mean</th><th>95% interval (questions)</th><th>one judge run: mean of the repeats (95% interval, questions and judge)</th><th>mean per repeat</th></tr></thead>
    <tbody>${r3.metrics.map((m3) => html`<tr><th>${labelOf[m3.metric] || m3.metric}</th>
      <td class="rw-num">${m3.mean === null ? html`<span class="rw-ds-undef">Undefined</span>` : fmt(m3.mean, 3)}</td>
      <td class="rw-num">${range(m3.ci_low, m3.ci_high)}</td>
      <td class="rw-num">${m3.judge_mean === null || m3.judge_ci_low === null ? "Undefined" : `${fmt(m3.judge_mean, 3)} (${range(m3.judge_ci_low, m3.judge_ci_high)})`}</td>
      <td class="rw-num">${range(m3.repeat_min, m3.repeat_max)}</td></tr>`)}</tbody></table>`)}</div>`;
}
function Summary({ summary, metrics, percent, cluster, count }) {
  const runs = [...new Set(summary.map((r3) => r3.run))];
  const cell = (r3) => {
    if (!r3) return html`<td />`;
    const mean = r3.mean === null ? html`<span class="rw-ds-undef">Undefined</span>` : fmt(r3.mean, percent ? 1 : 3);
    const ci = r3.ci_low === null ? "" : ` [${fmt(r3.ci_low, percent ? 1 : 3)}–${fmt(r3.ci_high, percent ? 1 : 3)}]`;
    return html`<td class="rw-num" title=${`${r3.defined} defined, ${r3.undefined} Undefined, ${r3.not_computable} not computable`}>
      ${mean}<span class="rw-ds-ci">${ci}</span>${r3.undefined ? html`<span class="rw-ds-count"> · ${r3.undefined} Undef</span>` : ""}</td>`;
  };
  const caption = cluster ? `Summary over the ${cluster.matching.toLocaleString("en-US")} matching samples, computed on the cluster: mean over defined samples, Undefined count (no bootstrap interval on a Dask-scored run)` : `Summary over the ${count} samples shown: mean over defined samples, 95% interval (exact for rare outcomes), Undefined count`;
  return html`<div class="rw-ds-wide"><table class="rw-table rw-ds-summary" data-testid="summary">
    <caption>${caption}</caption>
    <thead><tr><th>metric</th>${runs.map((r3) => html`<th>${r3}</th>`)}</tr></thead>
    <tbody>${metrics.map((m3) => html`<tr><th>${m3.label}</th>
      ${runs.map((run) => cell(summary.find((r3) => r3.run === run && r3.metric === m3.key)))}</tr>`)}</tbody>
  </table></div>`;
}
var panel13 = {
  key: "summary",
  title: "Summary",
  place: "tab",
  shows: () => true,
  part: (view) => ({
    summary: view.summary,
    metrics: view.metrics,
    percent: view.controls.percent,
    cluster: view.cluster,
    count: view.count,
    repeats: view.repeats
  }),
  traits: [],
  Panel: ({ part }) => html`<${Summary} ...${part} /><${Repeats} repeats=${part.repeats} labelOf=${labelsOf(part.metrics)} />`
};

// node_modules/@tanstack/virtual-core/dist/esm/lazy-measurements.js
function getMeasurementKey(item) {
  return typeof item === "object" ? item.key : item;
}
function createLazyMeasurementsView(cache, flat) {
  const count = cache.length;
  return new Proxy(cache, {
    get(target, prop, receiver) {
      if (typeof prop === "string") {
        const c3 = prop.charCodeAt(0);
        if (c3 >= 48 && c3 <= 57) {
          const i3 = +prop;
          if (Number.isInteger(i3) && i3 >= 0 && i3 < count) {
            let v3 = target[i3];
            if (typeof v3 !== "object") {
              const s3 = flat[i3 * 2];
              v3 = target[i3] = {
                index: i3,
                key: v3,
                start: s3,
                size: flat[i3 * 2 + 1],
                end: s3 + flat[i3 * 2 + 1],
                lane: 0
              };
            }
            return v3;
          }
        }
        if (prop === "length") return count;
      }
      return Reflect.get(target, prop, receiver);
    }
  });
}

// node_modules/@tanstack/virtual-core/dist/esm/utils.js
function memo2(getDeps, fn, opts) {
  let deps = opts.initialDeps ?? [];
  let result;
  let isInitial = true;
  function memoizedFunction() {
    var _a;
    const debugEnabled = !!opts.key && !!((_a = opts.debug) == null ? void 0 : _a.call(opts));
    let depTime = 0;
    if (debugEnabled) depTime = Date.now();
    const newDeps = getDeps();
    const depsChanged = newDeps.length !== deps.length || newDeps.some((dep, index) => deps[index] !== dep);
    if (!depsChanged) {
      return result;
    }
    deps = newDeps;
    let resultTime = 0;
    if (debugEnabled) resultTime = Date.now();
    result = fn(...newDeps);
    if (debugEnabled) {
      const depEndTime = Math.round((Date.now() - depTime) * 100) / 100;
      const resultEndTime = Math.round((Date.now() - resultTime) * 100) / 100;
      const resultFpsPercentage = resultEndTime / 16;
      const pad = (str, num) => {
        str = String(str);
        while (str.length < num) {
          str = " " + str;
        }
        return str;
      };
      console.info(
        `%c⏱ ${pad(resultEndTime, 5)} /${pad(depEndTime, 5)} ms`,
        `
            font-size: .6rem;
            font-weight: bold;
            color: hsl(${Math.max(
          0,
          Math.min(120 - 120 * resultFpsPercentage, 120)
        )}deg 100% 31%);`,
        opts == null ? void 0 : opts.key
      );
    }
    if ((opts == null ? void 0 : opts.onChange) && !(isInitial && opts.skipInitialOnChange)) {
      opts.onChange(result);
    }
    isInitial = false;
    return result;
  }
  memoizedFunction.updateDeps = (newDeps) => {
    deps = newDeps;
  };
  return memoizedFunction;
}
function notUndefined(value, msg) {
  if (value === void 0) {
    throw new Error(`Unexpected undefined${msg ? `: ${msg}` : ""}`);
  } else {
    return value;
  }
}
var approxEqual = (a3, b2) => Math.abs(a3 - b2) < 1.01;
var debounce = (targetWindow, fn, ms) => {
  let timeoutId;
  return Object.assign(
    function(...args) {
      targetWindow.clearTimeout(timeoutId);
      timeoutId = targetWindow.setTimeout(() => fn.apply(this, args), ms);
    },
    {
      // The handle is closure-local, so a caller that has already
      // unsubscribed has no way to stop a queued call. Teardown paths use
      // this to drop the pending invocation instead of letting it land.
      cancel: () => {
        targetWindow.clearTimeout(timeoutId);
      }
    }
  );
};

// node_modules/@tanstack/virtual-core/dist/esm/scroll-classifier.js
function classifyScrollEvent({
  offset,
  isScrolling,
  elementMax,
  holdOffset,
  scrollOffset,
  pendingWrite,
  clampedMaxAtWrite
}) {
  var _a;
  if (isScrolling && pendingWrite === null && offset === scrollOffset) {
    return "spurious";
  }
  if (pendingWrite !== null && Math.abs(offset - pendingWrite.target) < 1.5) {
    return "readBack";
  }
  if (pendingWrite !== null && !pendingWrite.smooth && elementMax !== null && pendingWrite.target > elementMax + holdOffset + 0.5 && Math.abs(offset - (elementMax + holdOffset)) < 1.5) {
    return "clampedReadBack";
  }
  if (pendingWrite !== null && !pendingWrite.smooth && ((_a = pendingWrite.lowMaxes) == null ? void 0 : _a.some((max) => Math.abs(offset - max) < 1.5))) {
    return "clampedReadBack";
  }
  if (clampedMaxAtWrite !== null && Math.abs(offset - clampedMaxAtWrite) < 1.5) {
    return "clampedEcho";
  }
  return "external";
}
var isAnimating = (phase) => phase === "smooth" || phase === "smoothFinishing";
function externalRetiresCommand({
  kind,
  offset,
  command,
  target
}) {
  return kind !== "spurious" && kind !== "readBack" && // Our own write, clamped (`clampedReadBack`, #1310): the command is not
  // retired by it, and reconcile retargets below the new max.
  kind !== "clampedReadBack" && (command == null ? void 0 : command.index) != null && // Nothing has been written for a command waiting for the tail; these
  // are the fling's events.
  command.phase !== "queued" && // A non-smooth write lands at once, so any other scroll event is the
  // user's, even before reconcile saw the target reached (the target may
  // keep moving, or iOS ignored the write under a finger). A write the
  // browser clamped because the sizer hasn't grown yet reads back at the
  // max, which is also where the fresh target clamps, so the check below
  // keeps it reconciling (#1294). While a smooth scroll's animation may
  // still report, its events look like a user's, so it yields only once it
  // has landed.
  !isAnimating(command.phase) && !approxEqual(offset, command.lastTargetOffset) && !approxEqual(offset, target()) && // A compensation write's clamped echo (#1258) keeps the command. The
  // order is deliberate, not tidiness: this clause stays after `target()`
  // (and `clampedReadBack` before it) because `target()` can rebuild the
  // measurements, so it must run for exactly the events it always did.
  kind !== "clampedEcho";
}
var FLING_WINDOW_MS = 40;
function flingSpedUp(samples) {
  const last = samples[samples.length - 1];
  if (last === void 0) return false;
  let j3 = samples.length - 2;
  while (j3 >= 0 && last.t - samples[j3].t < FLING_WINDOW_MS) j3--;
  if (j3 < 0) return false;
  const mid = samples[j3];
  let k3 = j3 - 1;
  while (k3 >= 0 && mid.t - samples[k3].t < FLING_WINDOW_MS) k3--;
  if (k3 < 0) return false;
  const first = samples[k3];
  const recent = (last.offset - mid.offset) / (last.t - mid.t);
  const before = (mid.offset - first.offset) / (mid.t - first.t);
  return recent * before >= 0 && Math.abs(recent) >= 2 * Math.abs(before) && Math.abs(recent) - Math.abs(before) >= 0.8;
}
function flingCaught(samples) {
  const last = samples[samples.length - 1];
  if (last === void 0) return false;
  let j3 = samples.length - 2;
  while (j3 >= 0 && last.t - samples[j3].t < FLING_WINDOW_MS) j3--;
  if (j3 < 0) return false;
  const from = samples[j3];
  return Math.abs(last.offset - from.offset) / (last.t - from.t) >= 0.05;
}

// node_modules/@tanstack/virtual-core/dist/esm/ios-gesture.js
var _isIOSResult;
var isIOSWebKit = () => {
  if (_isIOSResult !== void 0) return _isIOSResult;
  if (typeof navigator === "undefined") return _isIOSResult = false;
  if (/iP(hone|od|ad)/.test(navigator.userAgent)) return _isIOSResult = true;
  const mtp = navigator.maxTouchPoints;
  return _isIOSResult = navigator.platform === "MacIntel" && mtp !== void 0 && mtp > 0;
};
var _iosMomentumOverridesWritesResult;
var iosMomentumOverridesWrites = () => {
  if (_iosMomentumOverridesWritesResult !== void 0) {
    return _iosMomentumOverridesWritesResult;
  }
  return _iosMomentumOverridesWritesResult = isIOSWebKit() && typeof CSS !== "undefined" && typeof CSS.supports === "function" && CSS.supports("overflow-anchor: auto");
};
var momentumOverridesWrites = () => !isIOSWebKit() || iosMomentumOverridesWrites();
var touchListenerOptions = {
  capture: true,
  passive: true
};
var IosGesture = class {
  constructor(host) {
    this.host = host;
    this._touch = null;
    this.inMotion = () => this._touch !== null && this._touch.phase !== "lateFling";
    this.dragging = () => {
      var _a;
      return ((_a = this._touch) == null ? void 0 : _a.phase) === "down" && this._touch.moved;
    };
    this.tail = () => {
      var _a;
      return ((_a = this._touch) == null ? void 0 : _a.phase) === "tail" ? this._touch.moved ? "fling" : "tap" : null;
    };
    this.onScroll = ({
      isScrolling,
      ownReadBack,
      moved,
      external
    }) => {
      var _a, _b, _c;
      if (isScrolling && ((_a = this._touch) == null ? void 0 : _a.phase) === "tail") {
        this._openTail(this._touch.moved || !ownReadBack, false);
      } else if (((_b = this._touch) == null ? void 0 : _b.phase) === "lateFling") {
        if (this.host.now() > this._touch.until) {
          this._touch = null;
        } else if (external && isScrolling && moved) {
          this._openTail(true, false);
        }
      }
      if (!ownReadBack && isScrolling && moved && ((_c = this._touch) == null ? void 0 : _c.phase) === "down") {
        this._touch.moved = true;
        return true;
      }
      return false;
    };
    this.touchStart = () => {
      this.end();
      this._touch = { phase: "down", moved: false };
    };
    this.touchEnd = () => {
      var _a;
      const moved = ((_a = this._touch) == null ? void 0 : _a.phase) === "down" && this._touch.moved;
      this.end();
      this._openTail(moved, moved);
    };
    this.end = () => {
      var _a;
      const win = this.host.getWindow();
      if (((_a = this._touch) == null ? void 0 : _a.phase) === "tail" && win != null) {
        win.clearTimeout(this._touch.timerId);
      }
      this._touch = null;
    };
    this.listen = (target) => {
      const onTouchStart = () => this.touchStart();
      const onTouchEnd = () => this.touchEnd();
      target.addEventListener("touchstart", onTouchStart, touchListenerOptions);
      target.addEventListener("touchend", onTouchEnd, touchListenerOptions);
      target.addEventListener("touchcancel", onTouchEnd, touchListenerOptions);
      return () => {
        target.removeEventListener(
          "touchstart",
          onTouchStart,
          touchListenerOptions
        );
        target.removeEventListener("touchend", onTouchEnd, touchListenerOptions);
        target.removeEventListener(
          "touchcancel",
          onTouchEnd,
          touchListenerOptions
        );
        this.end();
      };
    };
    this._openTail = (moved, awaitingFling) => {
      const win = this.host.getWindow();
      if (win == null) return;
      this.end();
      const tail = {
        phase: "tail",
        moved,
        awaitingFling,
        // Only fires while this tail is current: `end` clears it otherwise.
        timerId: win.setTimeout(() => {
          if (this.host.tailStillMoving()) {
            this._openTail(tail.moved, tail.awaitingFling);
            return;
          }
          this._touch = tail.awaitingFling ? { phase: "lateFling", until: this.host.now() + 1e3 } : null;
          this.host.onTailClosed();
        }, 150)
      };
      this._touch = tail;
    };
  }
  get touch() {
    return this._touch;
  }
};

// node_modules/@tanstack/virtual-core/dist/esm/index.js
var getRect = (element) => {
  const { clientWidth, clientHeight } = element;
  return { width: clientWidth, height: clientHeight };
};
var createFrameQueue = (targetWindow) => {
  const ids = /* @__PURE__ */ new Set();
  return {
    schedule: (fn) => {
      const id = targetWindow.requestAnimationFrame(() => {
        ids.delete(id);
        fn();
      });
      ids.add(id);
    },
    cancel: () => {
      ids.forEach((id) => targetWindow.cancelAnimationFrame(id));
      ids.clear();
    }
  };
};
var defaultKeyExtractor = (index) => index;
var defaultRangeExtractor = (range) => {
  const overscan = range.overscan * Math.max(range.lanes ?? 1, 1);
  const start = Math.max(range.startIndex - overscan, 0);
  const end = Math.min(range.endIndex + overscan, range.count - 1);
  const len = end - start + 1;
  const arr = new Array(len);
  for (let i3 = 0; i3 < len; i3++) {
    arr[i3] = start + i3;
  }
  return arr;
};
var observeElementRect = (instance, cb) => {
  const element = instance.scrollElement;
  if (!element) {
    return;
  }
  const targetWindow = instance.targetWindow;
  if (!targetWindow) {
    return;
  }
  const handler = (rect) => {
    const { width, height } = rect;
    cb({ width: Math.round(width), height: Math.round(height) });
  };
  handler(getRect(element));
  if (!targetWindow.ResizeObserver) {
    return () => {
    };
  }
  const frames = createFrameQueue(targetWindow);
  const observer = new targetWindow.ResizeObserver(() => {
    const run = () => {
      handler(getRect(element));
    };
    instance.options.useAnimationFrameWithResizeObserver ? frames.schedule(run) : run();
  });
  observer.observe(element, { box: "content-box" });
  return () => {
    observer.unobserve(element);
    frames.cancel();
  };
};
var addEventListenerOptions = {
  passive: true
};
var supportsScrollend = typeof window == "undefined" ? true : "onscrollend" in window;
var observeOffset = (instance, cb, readOffset) => {
  const element = instance.scrollElement;
  if (!element) {
    return;
  }
  const targetWindow = instance.targetWindow;
  if (!targetWindow) {
    return;
  }
  const registerScrollendEvent = instance.options.useScrollendEvent && supportsScrollend;
  let offset = 0;
  const fallback = registerScrollendEvent ? null : debounce(
    targetWindow,
    () => cb(readOffset(element), false),
    instance.options.isScrollingResetDelay
  );
  const createHandler = (isScrolling) => () => {
    offset = readOffset(element);
    fallback == null ? void 0 : fallback();
    cb(offset, isScrolling);
  };
  const handler = createHandler(true);
  const endHandler = createHandler(false);
  element.addEventListener("scroll", handler, addEventListenerOptions);
  if (registerScrollendEvent) {
    element.addEventListener("scrollend", endHandler, addEventListenerOptions);
  }
  return () => {
    element.removeEventListener("scroll", handler);
    if (registerScrollendEvent) {
      element.removeEventListener("scrollend", endHandler);
    }
    fallback == null ? void 0 : fallback.cancel();
  };
};
var observeElementOffset = (instance, cb) => observeOffset(instance, cb, (el) => {
  const { horizontal, isRtl } = instance.options;
  return horizontal ? el.scrollLeft * (isRtl && -1 || 1) : el.scrollTop;
});
var measureElement = (element, entry, instance) => {
  if (instance.options.useCachedMeasurements) {
    const index = instance.indexFromElement(element);
    const key = instance.options.getItemKey(index);
    return instance.itemSizeCache.get(key) ?? instance.options.estimateSize(index);
  }
  if (entry == null ? void 0 : entry.borderBoxSize) {
    const box = entry.borderBoxSize[0];
    if (box) {
      const size = Math.round(
        box[instance.options.horizontal ? "inlineSize" : "blockSize"]
      );
      return size;
    }
  }
  if (!entry) {
    const index = instance.indexFromElement(element);
    const key = instance.options.getItemKey(index);
    const cachedSize = instance.itemSizeCache.get(key);
    if (cachedSize !== void 0) {
      return cachedSize;
    }
  }
  return element[instance.options.horizontal ? "offsetWidth" : "offsetHeight"];
};
var scrollWithAdjustments = (offset, {
  adjustments = 0,
  behavior
}, instance) => {
  var _a;
  const { scrollElement, options } = instance;
  const adjustedOffset = offset + adjustments;
  const isRtlElement = options.horizontal && options.isRtl && scrollElement !== null && "ownerDocument" in scrollElement;
  (_a = scrollElement == null ? void 0 : scrollElement.scrollTo) == null ? void 0 : _a.call(scrollElement, {
    [options.horizontal ? "left" : "top"]: isRtlElement ? -adjustedOffset : adjustedOffset,
    behavior
  });
};
var elementScroll = scrollWithAdjustments;
var initialScrollPhase = (behavior, atTarget) => behavior === "smooth" ? atTarget ? "smoothLanded" : "smooth" : "instant";
var isSmoothScroll = (state) => (state == null ? void 0 : state.phase) === "smooth" || (state == null ? void 0 : state.phase) === "smoothLanded";
function isAppendWithTrim(prevCount, nextCount, getPreviousKey, getNextKey) {
  if (nextCount === 0) return false;
  const firstKey = getNextKey(0);
  const removedKeys = /* @__PURE__ */ new Set();
  let removedCount = 0;
  while (removedCount < prevCount) {
    const key = getPreviousKey(removedCount);
    if (key === firstKey) break;
    removedKeys.add(key);
    removedCount++;
  }
  const retainedCount = prevCount - removedCount;
  if (retainedCount === 0 || retainedCount >= nextCount) return false;
  for (let i3 = 0; i3 < retainedCount; i3++) {
    if (getNextKey(i3) !== getPreviousKey(removedCount + i3)) return false;
  }
  for (let i3 = retainedCount; i3 < nextCount; i3++) {
    if (removedKeys.has(getNextKey(i3))) return false;
  }
  return true;
}
var Virtualizer = class {
  constructor(opts) {
    this.unsubs = [];
    this.scrollElement = null;
    this.targetWindow = null;
    this.isScrolling = false;
    this.scrollState = null;
    this.measurementsCache = [];
    this._singleLaneMeasurements = null;
    this.itemSizeCache = /* @__PURE__ */ new Map();
    this.itemSizeCacheVersion = 0;
    this.laneAssignments = /* @__PURE__ */ new Map();
    this.pendingMin = null;
    this.prevLanes = void 0;
    this.lanesChangedFlag = false;
    this.lanesSettling = false;
    this.pendingScrollAnchor = null;
    this.scrollRect = null;
    this.scrollOffset = null;
    this.scrollDirection = null;
    this._holdOffset = 0;
    this._reportedOverscroll = false;
    this._iosGesture = new IosGesture({
      getWindow: () => this.targetWindow,
      now: () => this.now(),
      // The end of a fling can move less than a pixel per scroll event, so
      // events can stop for 150ms while the fling is still running (seen on
      // an iPhone, 27.0.1). A command waiting for it would then be written
      // into the fling and overridden. The element having moved since the
      // last event means it has not ended: wait again. Not while our own
      // write has yet to report: that moved it.
      tailStillMoving: () => {
        const state = this.scrollState;
        if ((state == null ? void 0 : state.phase) !== "queued" || this.pendingWrite !== null) {
          return false;
        }
        const now = this._readElementOffset();
        if (now === null || this._lastElementOffset === null || Math.abs(now - this._lastElementOffset) < 1) {
          return false;
        }
        this._lastElementOffset = now;
        state.samples = [...state.samples ?? [], { t: this.now(), offset: now }];
        return true;
      },
      onTailClosed: () => {
        const state = this.scrollState;
        if ((state == null ? void 0 : state.phase) === "queued" && flingCaught(state.samples ?? [])) {
          this.scrollState = null;
        }
        this._flushHoldIfReady(true);
        this._writeAwaitingCommand();
        this._retryClampedAdjustment();
      }
    });
    this._lastElementOffset = null;
    this.pendingWrite = null;
    this._clampedAdjustment = null;
    this.elementsCache = /* @__PURE__ */ new Map();
    this._resizeBatch = null;
    this.now = () => {
      var _a, _b, _c;
      return ((_c = (_b = (_a = this.targetWindow) == null ? void 0 : _a.performance) == null ? void 0 : _b.now) == null ? void 0 : _c.call(_b)) ?? Date.now();
    };
    this.observer = /* @__PURE__ */ (() => {
      let _ro = null;
      let _frames = null;
      let delivering = false;
      let observeQueued = false;
      const pendingObservations = /* @__PURE__ */ new Set();
      const get = () => {
        if (_ro) {
          return _ro;
        }
        const targetWindow = this.targetWindow;
        if (!targetWindow || !targetWindow.ResizeObserver) {
          return null;
        }
        const frames = _frames = createFrameQueue(targetWindow);
        return _ro = new targetWindow.ResizeObserver((entries) => {
          const run = () => {
            const batch = { sync: false };
            this._resizeBatch = batch;
            try {
              entries.forEach(measureEntry);
            } finally {
              this._resizeBatch = null;
              if (batch.notify) {
                this.notify(batch.sync);
                this._noteClampMax();
                this._flushHoldIfReady(true);
                this._retryClampedAdjustment();
                this.measureElement(null);
              }
            }
          };
          if (this.options.useAnimationFrameWithResizeObserver) {
            frames.schedule(run);
          } else {
            delivering = true;
            try {
              run();
            } finally {
              delivering = false;
            }
          }
        });
      };
      const measureEntry = (entry) => {
        const node = entry.target;
        const index = this.indexFromElement(node);
        if (!node.isConnected) {
          this.observer.unobserve(node);
          for (const [cacheKey, cachedNode] of this.elementsCache) {
            if (cachedNode === node) {
              this.elementsCache.delete(cacheKey);
              break;
            }
          }
          return;
        }
        if (!this.isIndexInRange(index)) return;
        if (this.shouldMeasureDuringScroll(index)) {
          this.resizeItem(index, this.options.measureElement(node, entry, this));
        }
      };
      return {
        disconnect: () => {
          var _a;
          (_a = get()) == null ? void 0 : _a.disconnect();
          _frames == null ? void 0 : _frames.cancel();
          pendingObservations.clear();
          observeQueued = false;
          _ro = null;
          _frames = null;
        },
        observe: (target) => {
          const observer = get();
          if (!observer) return;
          if (!delivering) {
            observer.observe(target, { box: "border-box" });
            return;
          }
          pendingObservations.add(target);
          if (!observeQueued) {
            observeQueued = true;
            _frames == null ? void 0 : _frames.schedule(() => {
              observeQueued = false;
              pendingObservations.forEach((node) => {
                if (node.isConnected) _ro == null ? void 0 : _ro.observe(node, { box: "border-box" });
              });
              pendingObservations.clear();
            });
          }
        },
        unobserve: (target) => {
          var _a;
          pendingObservations.delete(target);
          (_a = get()) == null ? void 0 : _a.unobserve(target);
        }
      };
    })();
    this.range = null;
    this.setOptions = (opts2) => {
      var _a;
      const merged = {
        debug: false,
        initialOffset: 0,
        overscan: 1,
        paddingStart: 0,
        paddingEnd: 0,
        scrollPaddingStart: 0,
        scrollPaddingEnd: 0,
        horizontal: false,
        getItemKey: defaultKeyExtractor,
        rangeExtractor: defaultRangeExtractor,
        onChange: () => {
        },
        measureElement,
        initialRect: { width: 0, height: 0 },
        scrollMargin: 0,
        gap: 0,
        indexAttribute: "data-index",
        initialMeasurementsCache: [],
        lanes: 1,
        anchorTo: "start",
        followOnAppend: false,
        scrollEndThreshold: 1,
        isScrollingResetDelay: 150,
        enabled: true,
        isRtl: false,
        useScrollendEvent: false,
        useAnimationFrameWithResizeObserver: false,
        laneAssignmentMode: "estimate",
        useCachedMeasurements: false
      };
      for (const key in opts2) {
        const v3 = opts2[key];
        if (v3 !== void 0) merged[key] = v3;
      }
      const prevOptions = this.options;
      let anchor = null;
      let followOnAppend = null;
      let edgeKeysChanged = false;
      if (prevOptions !== void 0 && prevOptions.enabled && merged.enabled && merged.anchorTo === "end" && this.scrollElement !== null) {
        const prevCount = prevOptions.count;
        const nextCount = merged.count;
        const measurements = this.getMeasurements();
        const previousItems = ((_a = this._singleLaneMeasurements) == null ? void 0 : _a.items) ?? measurements;
        const getPreviousKey = (index) => getMeasurementKey(previousItems[index]);
        const prevFirstKey = prevCount > 0 ? getPreviousKey(0) : null;
        const prevLastKey = prevCount > 0 ? getPreviousKey(prevCount - 1) : null;
        const didCountChange = nextCount !== prevCount;
        const didEdgeKeysChange = didCountChange || prevCount > 0 && nextCount > 0 && (merged.getItemKey(0) !== prevFirstKey || merged.getItemKey(nextCount - 1) !== prevLastKey);
        if (didEdgeKeysChange) {
          edgeKeysChanged = true;
          const item = prevCount > 0 ? this.getVirtualItemForOffset(this.getScrollOffset()) ?? measurements[0] : null;
          if (item) {
            anchor = [item.key, this.getScrollOffset() - item.start];
          }
          const behavior = merged.followOnAppend === true ? "auto" : merged.followOnAppend || null;
          if (behavior && nextCount > 0 && this.isAtEnd(prevOptions.scrollEndThreshold) && (prevCount === 0 || merged.getItemKey(nextCount - 1) !== prevLastKey)) {
            if (nextCount > prevCount || isAppendWithTrim(
              prevCount,
              nextCount,
              getPreviousKey,
              merged.getItemKey
            )) {
              followOnAppend = behavior;
            }
          }
        }
      }
      this.options = merged;
      if (edgeKeysChanged) {
        this.pendingMin = 0;
        this.itemSizeCacheVersion++;
      }
      let anchorDelta = null;
      if (anchor && this.scrollOffset !== null && !this._awaitingCommandReadBack()) {
        const [anchorKey, anchorOffset] = anchor;
        const newMeasurements = this.getMeasurements();
        const { count, getItemKey } = this.options;
        let idx = 0;
        while (idx < count && getItemKey(idx) !== anchorKey) {
          idx++;
        }
        if (idx < count) {
          const anchorItem = newMeasurements[idx];
          if (anchorItem) {
            const newOffset = Math.max(0, anchorItem.start + anchorOffset);
            if (!followOnAppend && newOffset !== this.scrollOffset) {
              anchorDelta = newOffset - this.scrollOffset;
              this.scrollOffset = newOffset;
            }
          }
        }
      }
      if (followOnAppend) {
        this.pendingScrollAnchor = { kind: "follow", behavior: followOnAppend };
      } else if (anchorDelta !== null) {
        if (this._canWriteScroll()) {
          this.pendingScrollAnchor = { kind: "anchor", delta: anchorDelta };
        } else {
          this._holdOffset += anchorDelta;
          this._followOffsetTarget(anchorDelta);
        }
      }
    };
    this.notify = (sync) => {
      var _a, _b;
      (_b = (_a = this.options).onChange) == null ? void 0 : _b.call(_a, this, sync);
    };
    this.maybeNotify = memo2(
      () => {
        this.calculateRange();
        return [
          this.isScrolling,
          this.range ? this.range.startIndex : null,
          this.range ? this.range.endIndex : null
        ];
      },
      (isScrolling) => {
        this.notify(isScrolling);
      },
      {
        key: "maybeNotify",
        debug: () => this.options.debug,
        initialDeps: [
          this.isScrolling,
          this.range ? this.range.startIndex : null,
          this.range ? this.range.endIndex : null
        ]
      }
    );
    this.cleanup = () => {
      var _a;
      this.unsubs.filter(Boolean).forEach((d3) => d3());
      this.unsubs = [];
      this.observer.disconnect();
      if (this.rafId != null && this.targetWindow) {
        this.targetWindow.cancelAnimationFrame(this.rafId);
        this.rafId = null;
      }
      this.scrollState = null;
      (_a = this._momentumStop) == null ? void 0 : _a.restore();
      this._momentumStop = null;
      this.isScrolling = false;
      this.scrollDirection = null;
      this._holdOffset = 0;
      this._reportedOverscroll = false;
      this._clampedAdjustment = null;
      this.pendingWrite = null;
      this.scrollElement = null;
      this.targetWindow = null;
    };
    this._didMount = () => {
      return () => {
        this.cleanup();
      };
    };
    this._willUpdate = () => {
      var _a;
      const scrollElement = this.options.enabled ? this.options.getScrollElement() : null;
      if (this.scrollElement !== scrollElement) {
        this.cleanup();
        if (!scrollElement) {
          this.maybeNotify();
          return;
        }
        this.scrollElement = scrollElement;
        if (this.scrollElement && "ownerDocument" in this.scrollElement) {
          this.targetWindow = this.scrollElement.ownerDocument.defaultView;
        } else {
          this.targetWindow = ((_a = this.scrollElement) == null ? void 0 : _a.window) ?? null;
        }
        this.elementsCache.forEach((cached) => {
          this.observer.observe(cached);
        });
        this.unsubs.push(
          this.options.observeElementRect(this, (rect) => {
            this.scrollRect = rect;
            this.maybeNotify();
          })
        );
        this.unsubs.push(
          this.options.observeElementOffset(this, (offset, isScrolling) => {
            var _a2, _b, _c, _d;
            const elementMax = isScrolling ? this._elementMaxScrollOffset() : null;
            const wasOverscrolled = this._reportedOverscroll;
            this._reportedOverscroll = offset < 0 || elementMax !== null && offset > elementMax + 1;
            const elementOffset = offset;
            this._lastElementOffset = elementOffset;
            offset = this._toLayoutOffset(offset);
            const kind = this._classifyScrollEvent(
              offset,
              isScrolling,
              elementMax
            );
            if (kind === "spurious") return;
            if (kind === "readBack") {
              offset = this.pendingWrite.target;
            } else if (kind === "clampedReadBack" && ((_a2 = this.scrollState) == null ? void 0 : _a2.index) != null && // Not `elementMax`: an adapter can report the read-back at rest.
            offset < this.getMaxScrollOffset() - 1.5) {
              this.scrollState.lastTargetOffset = offset;
            } else if (externalRetiresCommand({
              kind,
              offset,
              command: this.scrollState,
              target: () => this.getScrollStateTarget(this.scrollState)
            })) {
              this.scrollState = null;
            }
            this.pendingWrite = null;
            if (this._clampedAdjustment !== null && Math.abs(offset - this._clampedAdjustment.maxAtWrite) >= 1.5) {
              this._clampedAdjustment = null;
            }
            const prevOffset = this.getScrollOffset();
            const prevDirection = this.scrollDirection;
            this.scrollDirection = isScrolling ? prevOffset === offset ? this.scrollDirection : prevOffset < offset ? "forward" : "backward" : null;
            this.scrollOffset = offset;
            this.isScrolling = isScrolling;
            const queued = this.scrollState;
            if ((queued == null ? void 0 : queued.phase) === "queued" && kind === "external" && isScrolling) {
              if (wasOverscrolled || this._reportedOverscroll) {
                queued.samples = [];
              } else {
                const t4 = this.now();
                queued.samples = [
                  ...(queued.samples ?? []).filter(
                    (sample) => t4 - sample.t <= 200
                  ),
                  { t: t4, offset: elementOffset }
                ];
                if (prevDirection !== null && this.scrollDirection !== prevDirection || flingSpedUp(queued.samples)) {
                  this.scrollState = null;
                }
              }
            }
            if (this._iosGesture.onScroll({
              isScrolling,
              ownReadBack: kind === "readBack",
              moved: offset !== prevOffset,
              // Neither our write's read-back nor a frame of our smooth
              // animation: the user or a fling moved it.
              external: kind === "external" && ((_b = this.scrollState) == null ? void 0 : _b.phase) !== "smooth" && ((_c = this.scrollState) == null ? void 0 : _c.phase) !== "smoothFinishing"
            }) && // The user scrolls: a command still waiting for the tail is
            // theirs to override, like a written one would be.
            ((_d = this.scrollState) == null ? void 0 : _d.phase) === "queued") {
              this.scrollState = null;
            }
            this._flushHoldIfReady(true);
            if (this.scrollState) {
              this.scheduleScrollReconcile();
            }
            this.maybeNotify();
          })
        );
        if ("addEventListener" in this.scrollElement) {
          this.unsubs.push(
            this._iosGesture.listen(this.scrollElement)
          );
        }
        this._scrollToOffset(this.getScrollOffset());
      }
      this._noteClampMax();
      const anchor = this.pendingScrollAnchor;
      this.pendingScrollAnchor = null;
      if (anchor && this.scrollElement && this.options.enabled) {
        if (anchor.kind === "anchor") {
          if (!this._canWriteScroll()) {
            this._holdOffset += anchor.delta;
            this._followOffsetTarget(anchor.delta);
            this.notify(false);
          } else if (isSmoothScroll(this.scrollState) && !approxEqual(
            this.getScrollOffset() - anchor.delta,
            this.scrollState.lastTargetOffset
          )) ;
          else {
            this._followOffsetTarget(anchor.delta);
            this._scrollToOffset(this.getScrollOffset());
          }
        } else {
          this.scrollToEnd({ behavior: anchor.behavior });
        }
      }
      this._flushHoldIfReady(false);
      this._retryClampedAdjustment();
    };
    this._classifyScrollEvent = (offset, isScrolling, elementMax) => {
      var _a;
      return classifyScrollEvent({
        offset,
        isScrolling,
        elementMax,
        holdOffset: this._holdOffset,
        scrollOffset: this.scrollOffset,
        pendingWrite: this.pendingWrite,
        clampedMaxAtWrite: ((_a = this._clampedAdjustment) == null ? void 0 : _a.maxAtWrite) ?? null
      });
    };
    this._retryClampedAdjustment = () => {
      if (this._clampedAdjustment === null || !this.scrollElement || !this.options.enabled || !this._canWriteScroll()) {
        return;
      }
      const { target, maxAtWrite } = this._clampedAdjustment;
      const max = this.getMaxScrollOffset();
      if (max > maxAtWrite + 0.5) {
        this._clampedAdjustment = target > max + 0.5 ? { target, maxAtWrite: max } : null;
        this._scrollToOffset(target);
      }
    };
    this._writeAwaitingCommand = () => {
      const state = this.scrollState;
      if (state === null || state.phase !== "queued") return;
      const { behavior } = state;
      this.getMeasurements();
      const offset = this.getScrollStateTarget(state);
      state.lastTargetOffset = offset;
      this._clampedAdjustment = null;
      state.phase = initialScrollPhase(
        behavior,
        state.index != null && approxEqual(offset, this.getScrollOffset())
      );
      this._scrollToOffset(offset, { behavior });
      this.scheduleScrollReconcile();
    };
    this._readElementOffset = () => {
      const el = this.scrollElement;
      if (el == null) return null;
      const { horizontal, isRtl } = this.options;
      if (typeof el.scrollTop === "number") {
        return horizontal ? el.scrollLeft * (isRtl && -1 || 1) : el.scrollTop;
      }
      if (typeof el.scrollY === "number") {
        return horizontal ? el.scrollX : el.scrollY;
      }
      return null;
    };
    this._canWriteScroll = () => !(isIOSWebKit() && this._iosGesture.inMotion()) && !this._reportedOverscroll;
    this._flushHoldIfReady = (sync) => {
      var _a;
      if (this._holdOffset === 0) return;
      if (!this.scrollElement || !this.options.enabled) return;
      if (!this._canWriteScroll()) return;
      if (((_a = this.scrollState) == null ? void 0 : _a.phase) === "smooth") return;
      this._holdOffset = 0;
      if (this.scrollOffset !== null && this.scrollOffset < 0) {
        this.scrollOffset = 0;
      }
      this.notify(sync);
      const target = this.getCommandWrittenOffset() ?? this.getScrollOffset();
      this._clampedAdjustment = this._clampedBy(target);
      this._scrollToOffset(target);
    };
    this.rafId = null;
    this.getSize = () => {
      if (!this.options.enabled) {
        this.scrollRect = null;
        return 0;
      }
      this.scrollRect = this.scrollRect ?? this.options.initialRect;
      return this.scrollRect[this.options.horizontal ? "width" : "height"];
    };
    this.getScrollOffset = () => {
      if (!this.options.enabled) {
        this.scrollOffset = null;
        return 0;
      }
      this.scrollOffset = this.scrollOffset ?? (typeof this.options.initialOffset === "function" ? this.options.initialOffset() : this.options.initialOffset);
      return this.scrollOffset;
    };
    this.getMeasurementOptions = memo2(
      () => [
        this.options.count,
        this.options.paddingStart,
        this.options.scrollMargin,
        this.options.getItemKey,
        this.options.enabled,
        this.options.lanes,
        this.options.laneAssignmentMode,
        this.options.gap
      ],
      (count, paddingStart, scrollMargin, getItemKey, enabled, lanes, laneAssignmentMode, gap) => {
        const lanesChanged = this.prevLanes !== void 0 && this.prevLanes !== lanes;
        if (lanesChanged) {
          this.lanesChangedFlag = true;
        }
        this.prevLanes = lanes;
        this.pendingMin = null;
        return {
          count,
          paddingStart,
          scrollMargin,
          getItemKey,
          enabled,
          lanes,
          laneAssignmentMode,
          gap
        };
      },
      {
        key: false
      }
    );
    this.isIndexInRange = (index) => index >= 0 && index < this.options.count;
    this.getMeasurements = memo2(
      () => [this.getMeasurementOptions(), this.itemSizeCacheVersion],
      ({
        count,
        paddingStart,
        scrollMargin,
        getItemKey,
        enabled,
        lanes,
        laneAssignmentMode,
        gap
      }, _itemSizeCacheVersion) => {
        var _a;
        const itemSizeCache = this.itemSizeCache;
        if (!enabled) {
          this.measurementsCache = [];
          this._singleLaneMeasurements = null;
          this.itemSizeCache.clear();
          this.laneAssignments.clear();
          return [];
        }
        if (this.laneAssignments.size > count) {
          for (const index of this.laneAssignments.keys()) {
            if (index >= count) {
              this.laneAssignments.delete(index);
            }
          }
        }
        if (this.lanesChangedFlag) {
          this.lanesChangedFlag = false;
          this.lanesSettling = true;
          this.measurementsCache = [];
          this._singleLaneMeasurements = null;
          this.itemSizeCache.clear();
          this.laneAssignments.clear();
          this.pendingMin = null;
        }
        if (this.measurementsCache.length === 0 && !this.lanesSettling) {
          this.measurementsCache = this.options.initialMeasurementsCache;
          this.measurementsCache.forEach((item) => {
            this.itemSizeCache.set(item.key, item.size);
          });
        }
        const min = this.lanesSettling ? 0 : this.pendingMin ?? 0;
        this.pendingMin = null;
        if (this.lanesSettling && this.measurementsCache.length === count) {
          this.lanesSettling = false;
        }
        if (lanes === 1) {
          const need = count * 2;
          let flat = (_a = this._singleLaneMeasurements) == null ? void 0 : _a.flat;
          if (!flat || flat.length < need) {
            const next = new Float64Array(need);
            if (flat && min > 0) next.set(flat.subarray(0, min * 2));
            flat = next;
          }
          const items = min === 0 ? new Array(count) : this._singleLaneMeasurements.items.slice();
          let runningStart;
          if (min === 0) {
            runningStart = paddingStart + scrollMargin;
          } else {
            const prevIdx = min - 1;
            runningStart = flat[prevIdx * 2] + flat[prevIdx * 2 + 1] + gap;
          }
          for (let i3 = min; i3 < count; i3++) {
            const key = getItemKey(i3);
            items[i3] = key;
            const measuredSize = itemSizeCache.get(key);
            const size = typeof measuredSize === "number" ? measuredSize : this.options.estimateSize(i3);
            flat[i3 * 2] = runningStart;
            flat[i3 * 2 + 1] = size;
            runningStart += size + gap;
          }
          this._singleLaneMeasurements = { flat, items };
          const view = createLazyMeasurementsView(items, flat);
          this.measurementsCache = view;
          return view;
        }
        const measurements = this.measurementsCache.slice(0, min);
        const laneLastIndex = new Array(lanes).fill(
          void 0
        );
        const laneEnds = new Float64Array(lanes);
        let filledLanes = 0;
        for (let m3 = 0; m3 < min; m3++) {
          const item = measurements[m3];
          if (item) {
            if (laneLastIndex[item.lane] === void 0) filledLanes++;
            laneLastIndex[item.lane] = m3;
            laneEnds[item.lane] = item.end;
          }
        }
        for (let i3 = min; i3 < count; i3++) {
          const key = getItemKey(i3);
          const cachedLane = this.laneAssignments.get(i3);
          let lane;
          let start;
          const shouldCacheLane = laneAssignmentMode === "estimate" || itemSizeCache.has(key);
          if (cachedLane !== void 0 && this.options.lanes > 1) {
            lane = cachedLane;
            const prevIndex = laneLastIndex[lane];
            const prevInLane = prevIndex !== void 0 ? measurements[prevIndex] : void 0;
            start = prevInLane ? prevInLane.end + gap : paddingStart + scrollMargin;
          } else if (filledLanes === lanes) {
            let bestLane = 0;
            let bestEnd = laneEnds[0];
            let bestIdx = laneLastIndex[0];
            for (let l3 = 1; l3 < lanes; l3++) {
              const e3 = laneEnds[l3];
              if (e3 < bestEnd || e3 === bestEnd && laneLastIndex[l3] < bestIdx) {
                bestLane = l3;
                bestEnd = e3;
                bestIdx = laneLastIndex[l3];
              }
            }
            lane = bestLane;
            start = bestEnd + gap;
            if (shouldCacheLane) {
              this.laneAssignments.set(i3, lane);
            }
          } else {
            lane = i3 % this.options.lanes;
            start = paddingStart + scrollMargin;
            if (shouldCacheLane) {
              this.laneAssignments.set(i3, lane);
            }
          }
          const measuredSize = itemSizeCache.get(key);
          const size = typeof measuredSize === "number" ? measuredSize : this.options.estimateSize(i3);
          const end = start + size;
          measurements[i3] = {
            index: i3,
            start,
            size,
            end,
            key,
            lane
          };
          if (laneLastIndex[lane] === void 0) filledLanes++;
          laneLastIndex[lane] = i3;
          laneEnds[lane] = end;
        }
        this.measurementsCache = measurements;
        return measurements;
      },
      {
        key: "getMeasurements",
        debug: () => this.options.debug
      }
    );
    this.calculateRange = memo2(
      () => [
        this.getMeasurements(),
        this.getSize(),
        this.getScrollOffset(),
        this.options.lanes,
        // scrollOffset is measured in the scroll element and the layout total
        // from the list start, so the list ends scrollMargin further down.
        this._getLayoutTotalSize() + this.options.scrollMargin
      ],
      (measurements, outerSize, scrollOffset, lanes, listEnd) => {
        if (measurements.length === 0 || outerSize === 0) {
          this.range = null;
          return null;
        }
        const maxScrollOffset = Math.max(listEnd - outerSize, 0);
        this.range = calculateRangeImpl(
          measurements,
          outerSize,
          Math.min(scrollOffset, maxScrollOffset),
          lanes,
          // Pass the typed array so binary search + forward-walk can read
          // start/end directly from Float64Array, skipping the Proxy traps.
          lanes === 1 && this._singleLaneMeasurements !== null ? this._singleLaneMeasurements.flat : null
        );
        return this.range;
      },
      {
        key: "calculateRange",
        debug: () => this.options.debug
      }
    );
    this.getVirtualIndexes = memo2(
      () => {
        let startIndex = null;
        let endIndex = null;
        const range = this.calculateRange();
        if (range) {
          startIndex = range.startIndex;
          endIndex = range.endIndex;
        }
        this.maybeNotify.updateDeps([this.isScrolling, startIndex, endIndex]);
        return [
          this.options.rangeExtractor,
          this.options.overscan,
          this.options.count,
          startIndex,
          endIndex,
          this.options.lanes
        ];
      },
      (rangeExtractor, overscan, count, startIndex, endIndex, lanes) => {
        return startIndex === null || endIndex === null ? [] : rangeExtractor({
          startIndex,
          endIndex,
          overscan,
          count,
          lanes
        });
      },
      {
        key: "getVirtualIndexes",
        debug: () => this.options.debug
      }
    );
    this.indexFromElement = (node) => {
      const attributeName = this.options.indexAttribute;
      const indexStr = node.getAttribute(attributeName);
      if (!indexStr) {
        console.warn(
          `Missing attribute name '${attributeName}={index}' on measured element.`
        );
        return -1;
      }
      return parseInt(indexStr, 10);
    };
    this.shouldMeasureDuringScroll = (index) => {
      var _a;
      if (!isSmoothScroll(this.scrollState)) {
        return true;
      }
      const scrollIndex = this.scrollState.index ?? ((_a = this.getVirtualItemForOffset(this.scrollState.lastTargetOffset)) == null ? void 0 : _a.index);
      if (scrollIndex !== void 0 && this.range) {
        const bufferSize = Math.max(
          this.options.overscan,
          Math.ceil((this.range.endIndex - this.range.startIndex) / 2)
        );
        const minIndex = Math.max(0, scrollIndex - bufferSize);
        const maxIndex = Math.min(
          this.options.count - 1,
          scrollIndex + bufferSize
        );
        return index >= minIndex && index <= maxIndex;
      }
      return true;
    };
    this.measureElement = (node) => {
      if (!node) {
        this.elementsCache.forEach((cached, key2) => {
          if (!cached.isConnected) {
            this.observer.unobserve(cached);
            this.elementsCache.delete(key2);
          }
        });
        return;
      }
      const index = this.indexFromElement(node);
      if (!this.isIndexInRange(index)) return;
      const key = this.options.getItemKey(index);
      const prevNode = this.elementsCache.get(key);
      if (prevNode !== node) {
        if (prevNode) {
          this.observer.unobserve(prevNode);
        }
        this.observer.observe(node);
        this.elementsCache.set(key, node);
      }
      if (node.isConnected && (!this.isScrolling || this.scrollState) && this.shouldMeasureDuringScroll(index)) {
        this.resizeItem(index, this.options.measureElement(node, void 0, this));
      }
    };
    this.resizeItem = (index, size) => {
      var _a, _b, _c;
      if (!this.isIndexInRange(index)) return;
      if ((_a = this._resizeBatch) == null ? void 0 : _a.sync) this.getMeasurements();
      let cachedSize;
      let itemStart;
      let key;
      const flat = (_b = this._singleLaneMeasurements) == null ? void 0 : _b.flat;
      if (this.options.lanes === 1 && flat != null) {
        key = this.options.getItemKey(index);
        itemStart = flat[index * 2];
        cachedSize = flat[index * 2 + 1];
      } else {
        const item = this.measurementsCache[index];
        if (!item) return;
        key = item.key;
        itemStart = item.start;
        cachedSize = item.size;
      }
      const itemSize = this.itemSizeCache.get(key) ?? cachedSize;
      const delta = size - itemSize;
      if (delta !== 0) {
        const wasAtEnd = this.options.anchorTo === "end" && !isSmoothScroll(this.scrollState) && this.getVirtualDistanceFromEnd() <= this.options.scrollEndThreshold;
        const prevTotalSize = wasAtEnd ? this._getLayoutTotalSize() : 0;
        const scrollOffset = this.getScrollOffset();
        const isFirstMeasure = !this.itemSizeCache.has(key);
        const defaultShouldAdjust = isFirstMeasure ? (
          // First measurement: compensate any item whose top sits above the
          // fold — the estimate→actual delta must be corrected regardless of
          // scroll direction, since the whole estimated block was above it.
          itemStart < scrollOffset
        ) : (
          // Re-measurement: only compensate an item that is ENTIRELY above the
          // fold. An item that merely *spans* the fold (top above, bottom
          // below — e.g. a streaming chat message growing at its bottom)
          // changes size *below* the anchor point, so shifting scrollTop by the
          // delta would drag the viewport downward on every growth (#1218).
          // Also skip during backward scroll to avoid the "items jump while
          // scrolling up" cascade.
          itemStart + itemSize <= scrollOffset && this.scrollDirection !== "backward"
        );
        const shouldAdjustScroll = !isSmoothScroll(this.scrollState) && (this.shouldAdjustScrollPositionOnItemSizeChange !== void 0 ? this.shouldAdjustScrollPositionOnItemSizeChange(
          // The callback expects a VirtualItem; build one lazily only
          // when the consumer actually supplied a custom predicate.
          this.measurementsCache[index] ?? {
            index,
            key,
            start: itemStart,
            size: cachedSize,
            end: itemStart + cachedSize,
            lane: 0
          },
          delta,
          this
        ) : defaultShouldAdjust);
        if (this.pendingMin === null || index < this.pendingMin) {
          this.pendingMin = index;
        }
        this.itemSizeCache.set(key, size);
        this.itemSizeCacheVersion++;
        let adjustedSync = false;
        if (!this._awaitingCommandReadBack()) {
          if (wasAtEnd) {
            adjustedSync = this.applyScrollAdjustment(
              this._getLayoutTotalSize() - prevTotalSize
            );
          } else if (shouldAdjustScroll) {
            adjustedSync = this.applyScrollAdjustment(delta);
          }
        }
        if (this._resizeBatch) {
          this._resizeBatch.notify = true;
          (_c = this._resizeBatch).sync || (_c.sync = adjustedSync);
          return;
        }
        this.notify(adjustedSync);
        this._noteClampMax();
        this._flushHoldIfReady(true);
        this._retryClampedAdjustment();
      }
    };
    this.getVirtualItems = memo2(
      () => [this.getVirtualIndexes(), this.getMeasurements(), this._holdOffset],
      (indexes, measurements, hold) => {
        const virtualItems = [];
        for (let k3 = 0, len = indexes.length; k3 < len; k3++) {
          const i3 = indexes[k3];
          const measurement = measurements[i3];
          virtualItems.push(
            hold === 0 ? measurement : {
              ...measurement,
              start: measurement.start - hold,
              end: measurement.end - hold
            }
          );
        }
        return virtualItems;
      },
      {
        key: "getVirtualItems",
        debug: () => this.options.debug
      }
    );
    this.getVirtualItemForOffset = (offset) => {
      var _a;
      const measurements = this.getMeasurements();
      if (measurements.length === 0) {
        return void 0;
      }
      const flat = (_a = this._singleLaneMeasurements) == null ? void 0 : _a.flat;
      const useFlat = this.options.lanes === 1 && flat != null;
      const idx = findNearestBinarySearch(
        0,
        measurements.length - 1,
        useFlat ? (i3) => flat[i3 * 2] : (i3) => notUndefined(measurements[i3]).start,
        offset
      );
      return notUndefined(measurements[idx]);
    };
    this._noteClampMax = () => {
      if (!this._awaitingCommandReadBack()) return;
      const elementMax = this._elementMaxScrollOffset();
      if (elementMax === null) return;
      const write = this.pendingWrite;
      const max = Math.max(elementMax, 0) + this._holdOffset;
      if (max >= write.target) return;
      const lowMaxes = write.lowMaxes ?? (write.lowMaxes = []);
      if (lowMaxes[lowMaxes.length - 1] !== max) lowMaxes.push(max);
    };
    this.getMaxScrollOffset = () => (this._elementMaxScrollOffset() ?? 0) + this._holdOffset;
    this._toLayoutOffset = (elementOffset) => {
      var _a;
      let offset = elementOffset + this._holdOffset;
      if (((_a = this.pendingScrollAnchor) == null ? void 0 : _a.kind) === "anchor") {
        offset += this.pendingScrollAnchor.delta;
      }
      return offset;
    };
    this._elementMaxScrollOffset = () => {
      const el = this.scrollElement;
      if (el === null) return null;
      if ("scrollHeight" in el) {
        return this.options.horizontal ? el.scrollWidth - el.clientWidth : el.scrollHeight - el.clientHeight;
      }
      if ("document" in el) {
        const doc = el.document.documentElement;
        return this.options.horizontal ? doc.scrollWidth - el.innerWidth : doc.scrollHeight - el.innerHeight;
      }
      return null;
    };
    this._momentumStop = null;
    this._stopMomentum = (done) => {
      const el = this.scrollElement;
      const win = this.targetWindow;
      if (el === null || win === null) return;
      const scroller = "document" in el ? el.document.scrollingElement : el;
      if (!(scroller == null ? void 0 : scroller.style)) return;
      if (this._momentumStop) {
        this._momentumStop.done = done;
        return;
      }
      const { style } = scroller;
      const property = this.options.horizontal ? "overflow-x" : "overflow-y";
      const value = style.getPropertyValue(property);
      const priority = style.getPropertyPriority(property);
      const crossSize = () => this.options.horizontal ? scroller.clientHeight : scroller.clientWidth;
      const crossSizeBefore = crossSize();
      style.setProperty(property, "hidden", "important");
      if (crossSize() !== crossSizeBefore) {
        style.setProperty(property, value, priority);
        return;
      }
      const stop = {
        // False when the app replaced the hidden value: the fling may not
        // have stopped.
        restore: () => {
          if (style.getPropertyValue(property) !== "hidden" || style.getPropertyPriority(property) !== "important") {
            return false;
          }
          style.setProperty(property, value, priority);
          return true;
        },
        done
      };
      this._momentumStop = stop;
      win.requestAnimationFrame(
        () => win.requestAnimationFrame(() => {
          if (this._momentumStop !== stop) return;
          this._momentumStop = null;
          if (stop.restore()) stop.done();
        })
      );
    };
    this._clampedBy = (target) => {
      const elementMax = this._elementMaxScrollOffset();
      if (elementMax === null) return null;
      const maxAtWrite = elementMax + this._holdOffset;
      return target > maxAtWrite + 0.5 ? { target, maxAtWrite } : null;
    };
    this.getVirtualDistanceFromEnd = () => {
      return Math.max(
        this._getLayoutTotalSize() + this.options.scrollMargin - this.getSize() - this.getScrollOffset(),
        0
      );
    };
    this.getDistanceFromEnd = () => {
      return Math.max(this.getMaxScrollOffset() - this.getScrollOffset(), 0);
    };
    this.isAtEnd = (threshold = this.options.scrollEndThreshold) => {
      return this.getDistanceFromEnd() <= threshold;
    };
    this.getOffsetForAlignment = (toOffset, align, itemSize = 0) => {
      if (!this.scrollElement) return 0;
      const size = this.getSize();
      const scrollOffset = this.getScrollOffset();
      if (align === "auto") {
        align = toOffset >= scrollOffset + size ? "end" : "start";
      }
      if (align === "center") {
        toOffset += (itemSize - size) / 2;
      } else if (align === "end") {
        toOffset -= size;
      }
      const maxOffset = this.getMaxScrollOffset();
      return Math.max(Math.min(maxOffset, toOffset), 0);
    };
    this.getOffsetForIndex = (index, align = "auto") => {
      index = Math.max(0, Math.min(index, this.options.count - 1));
      const size = this.getSize();
      const scrollOffset = this.getScrollOffset();
      const item = this.getMeasurements()[index];
      if (!item) return;
      if (align === "auto") {
        if (item.end >= scrollOffset + size - this.options.scrollPaddingEnd) {
          align = "end";
        } else if (item.start <= scrollOffset + this.options.scrollPaddingStart) {
          align = "start";
        } else {
          return [scrollOffset, align];
        }
      }
      if (align === "end" && index === this.options.count - 1) {
        const maxOffset = this.getMaxScrollOffset();
        const toOffset2 = maxOffset - this.options.paddingEnd + this.options.scrollPaddingEnd;
        return [Math.max(Math.min(toOffset2, maxOffset), 0), align];
      }
      const toOffset = align === "end" ? item.end + this.options.scrollPaddingEnd : item.start - this.options.scrollPaddingStart;
      return [
        this.getOffsetForAlignment(toOffset, align, item.size),
        align
      ];
    };
    this.scrollToOffset = (toOffset, { align = "start", behavior = "auto" } = {}) => {
      this._startScroll(
        { index: null, align },
        this.getOffsetForAlignment(toOffset, align),
        behavior,
        "absolute"
      );
    };
    this.scrollToIndex = (index, {
      align: initialAlign = "auto",
      behavior = "auto"
    } = {}) => {
      index = Math.max(0, Math.min(index, this.options.count - 1));
      const offsetInfo = this.getOffsetForIndex(index, initialAlign);
      if (!offsetInfo) return;
      const [offset, align] = offsetInfo;
      this._startScroll({ index, align }, offset, behavior, "absolute");
    };
    this.scrollBy = (delta, { behavior = "auto" } = {}) => {
      const offset = this.getOffsetForAlignment(
        (this.getCommandWrittenOffset() ?? this.getScrollOffset()) + delta,
        "start"
      );
      this._startScroll(
        { index: null, align: "start" },
        offset,
        behavior,
        "relative"
      );
    };
    this.scrollToEnd = ({ behavior = "auto" } = {}) => {
      if (this.options.count > 0) {
        this._startScroll(
          { index: this.options.count - 1, align: "end", toEnd: true },
          Math.max(this.getMaxScrollOffset(), 0),
          behavior,
          "absolute"
        );
        return;
      }
      this.scrollToOffset(Math.max(this.getTotalSize() - this.getSize(), 0), {
        behavior
      });
    };
    this.cancelScroll = () => {
      if (this.rafId != null && this.targetWindow) {
        this.targetWindow.cancelAnimationFrame(this.rafId);
        this.rafId = null;
      }
      this.scrollState = null;
    };
    this.getTotalSize = () => Math.max(this._getLayoutTotalSize() - this._holdOffset, 0);
    this._getLayoutTotalSize = () => {
      var _a, _b;
      const measurements = this.getMeasurements();
      let end;
      if (measurements.length === 0) {
        end = this.options.paddingStart;
      } else if (this.options.lanes === 1) {
        const lastIdx = measurements.length - 1;
        const flat = (_a = this._singleLaneMeasurements) == null ? void 0 : _a.flat;
        if (flat != null) {
          end = flat[lastIdx * 2] + flat[lastIdx * 2 + 1];
        } else {
          end = ((_b = measurements[lastIdx]) == null ? void 0 : _b.end) ?? 0;
        }
      } else {
        const endByLane = Array(this.options.lanes).fill(null);
        let endIndex = measurements.length - 1;
        while (endIndex >= 0 && endByLane.some((val) => val === null)) {
          const item = measurements[endIndex];
          if (endByLane[item.lane] === null) {
            endByLane[item.lane] = item.end;
          }
          endIndex--;
        }
        end = Math.max(...endByLane.filter((val) => val !== null));
      }
      return Math.max(
        end - this.options.scrollMargin + this.options.paddingEnd,
        0
      );
    };
    this.takeSnapshot = () => {
      const snapshot = [];
      if (this.itemSizeCache.size === 0) return snapshot;
      const m3 = this.getMeasurements();
      for (const item of m3) {
        if (item && this.itemSizeCache.has(item.key)) {
          snapshot.push({
            index: item.index,
            key: item.key,
            start: item.start,
            size: item.size,
            end: item.end,
            lane: item.lane
          });
        }
      }
      return snapshot;
    };
    this._scrollToOffset = (offset, {
      adjustments,
      behavior
    } = {}) => {
      const write = {
        target: offset + (adjustments ?? 0),
        smooth: behavior === "smooth"
      };
      this.pendingWrite = write;
      this.options.scrollToFn(
        offset - this._holdOffset,
        { behavior, adjustments },
        this
      );
      return write;
    };
    this.getCommandWrittenOffset = () => this.scrollState !== null && this.pendingWrite !== null && !this.pendingWrite.smooth ? this.pendingWrite.target : null;
    this._awaitingCommandReadBack = () => {
      const writtenOffset = this.getCommandWrittenOffset();
      return !(isIOSWebKit() && this._iosGesture.dragging()) && writtenOffset !== null && !approxEqual(writtenOffset, this.getScrollOffset());
    };
    this._followOffsetTarget = (delta) => {
      if (this.scrollState !== null && this.scrollState.index == null) {
        this.scrollState.lastTargetOffset += delta;
      }
    };
    this.measure = () => {
      this.pendingMin = null;
      this.itemSizeCache.clear();
      this.laneAssignments.clear();
      this.itemSizeCacheVersion++;
      this.notify(false);
    };
    this.setOptions(opts);
  }
  /**
   * @deprecated Always 0: a scroll correction is folded into `scrollOffset`
   * at once, so there is never an outstanding adjustment to add to it. Read
   * `scrollOffset` alone.
   */
  get scrollAdjustments() {
    return 0;
  }
  // Returns `true` when it performed a synchronous `scrollTop` write this
  // tick, `false` when the delta was zero or the write was deferred (iOS).
  // `resizeItem` uses that to decide whether the follow-up `notify` must be
  // synchronous so the grown transforms commit in the same paint (#1227).
  applyScrollAdjustment(delta, behavior) {
    if (delta === 0) return false;
    if (this.options.debug) {
      console.info("correction", delta);
    }
    this._followOffsetTarget(delta);
    if (!this._canWriteScroll()) {
      this._holdOffset += delta;
      if (this.scrollOffset !== null) this.scrollOffset += delta;
      return true;
    } else {
      const offset = this.getScrollOffset();
      this._clampedAdjustment = this._clampedBy(offset + delta);
      const write = this._scrollToOffset(offset, {
        adjustments: delta,
        behavior
      });
      if (this.scrollOffset !== null) {
        if (this.pendingWrite === write) this.scrollOffset += delta;
        if (this.scrollOffset < 0) this.scrollOffset = 0;
      }
      return true;
    }
  }
  scheduleScrollReconcile() {
    if (!this.targetWindow) {
      this.scrollState = null;
      return;
    }
    if (this.rafId != null) return;
    this.rafId = this.targetWindow.requestAnimationFrame(() => {
      this.rafId = null;
      this.reconcileScroll();
    });
  }
  getScrollStateTarget(state) {
    const offsetInfo = state.toEnd ? [Math.max(this.getMaxScrollOffset(), 0)] : state.index != null ? this.getOffsetForIndex(state.index, state.align) : void 0;
    return offsetInfo ? offsetInfo[0] : state.lastTargetOffset;
  }
  reconcileScroll() {
    if (!this.scrollState) return;
    const el = this.scrollElement;
    if (!el) return;
    const MAX_RECONCILE_MS = 5e3;
    if (this.now() - this.scrollState.startedAt > MAX_RECONCILE_MS) {
      this.scrollState = null;
      return;
    }
    if (this.scrollState.phase === "queued") {
      this.scheduleScrollReconcile();
      return;
    }
    this.getMeasurements();
    const targetOffset = this.getScrollStateTarget(this.scrollState);
    const STABLE_FRAMES = this.scrollState.index == null ? 1 : this.options.useAnimationFrameWithResizeObserver ? 3 : 2;
    const targetChanged = targetOffset !== this.scrollState.lastTargetOffset;
    if (!targetChanged && approxEqual(targetOffset, this.getScrollOffset())) {
      if (this.scrollState.phase === "smooth") {
        this.scrollState.phase = "smoothLanded";
      } else if (this.scrollState.phase === "smoothFinishing") {
        this.scrollState.phase = "instant";
      }
      this.scrollState.stableFrames++;
      if (this.scrollState.stableFrames >= STABLE_FRAMES) {
        if (this.getScrollOffset() !== targetOffset) {
          this._scrollToOffset(targetOffset, { behavior: "auto" });
        }
        this.scrollState = null;
        return;
      }
    } else {
      this.scrollState.stableFrames = 0;
      if (targetChanged) {
        const viewport = this.getSize() || 600;
        const distance = Math.abs(targetOffset - this.getScrollOffset());
        const keepSmooth = isSmoothScroll(this.scrollState) && distance > viewport;
        this.scrollState.lastTargetOffset = targetOffset;
        if (keepSmooth) {
          this.scrollState.phase = "smooth";
        } else if (this.scrollState.phase === "smooth") {
          this.scrollState.phase = "smoothFinishing";
        } else if (this.scrollState.phase === "smoothLanded") {
          this.scrollState.phase = "instant";
        }
        this._scrollToOffset(targetOffset, {
          behavior: keepSmooth ? "smooth" : "auto"
        });
      }
    }
    this.scheduleScrollReconcile();
  }
  // Every scroll command starts here: it becomes the in-flight command,
  // writes its first target and leaves reconcile to retarget and retire it.
  //
  // Targets are layout offsets. A held correction is not dropped by a
  // command: the write lands the element `_holdOffset` short of the target,
  // under the rows exposed shifted by the same amount, and the flush moves
  // both together once a write is possible.
  //
  // An index or end target that is already at its offset starts a smooth
  // scroll as landed; an offset target never does, so its first scroll
  // event is read as the user's (see the scroll handler in `_willUpdate`).
  _startScroll(target, offset, behavior, kind) {
    this.pendingScrollAnchor = null;
    this._clampedAdjustment = null;
    const tail = this._iosGesture.tail();
    if (kind === "absolute" && tail !== null) {
      if (tail === "fling" && momentumOverridesWrites()) {
        this._stopMomentum(() => {
          const state = this.scrollState;
          if ((state == null ? void 0 : state.phase) !== "queued" || // A finger came down: it owns the scroll until it lifts.
          this._iosGesture.tail() !== "fling" || // In a bounce WebKit can drop the write (#1287): the tail
          // decides, as without the stop. (Not `flingCaught`: our stop
          // also ends the fling at speed, so a slow frame would read as
          // a catch and the tail would drop the command.)
          this._reportedOverscroll) {
            return;
          }
          this._iosGesture.end();
          this._flushHoldIfReady(true);
          this._writeAwaitingCommand();
        });
        this.scrollState = {
          ...target,
          startedAt: this.now(),
          lastTargetOffset: offset,
          stableFrames: 0,
          phase: "queued",
          behavior,
          samples: []
        };
        this.scheduleScrollReconcile();
        return;
      }
      this._iosGesture.end();
    }
    this.scrollState = {
      ...target,
      startedAt: this.now(),
      lastTargetOffset: offset,
      stableFrames: 0,
      behavior,
      phase: initialScrollPhase(
        behavior,
        target.index != null && approxEqual(offset, this.getScrollOffset())
      )
    };
    this._scrollToOffset(offset, { behavior });
    this.scheduleScrollReconcile();
  }
};
var findNearestBinarySearch = (low, high, getCurrentValue, value) => {
  while (low <= high) {
    const middle = (low + high) / 2 | 0;
    const currentValue = getCurrentValue(middle);
    if (currentValue < value) {
      low = middle + 1;
    } else if (currentValue > value) {
      high = middle - 1;
    } else {
      return middle;
    }
  }
  if (low > 0) {
    return low - 1;
  } else {
    return 0;
  }
};
function findNearestBinarySearchFlat(flat, high, value) {
  let low = 0;
  while (low <= high) {
    const middle = (low + high) / 2 | 0;
    const currentValue = flat[middle * 2];
    if (currentValue < value) {
      low = middle + 1;
    } else if (currentValue > value) {
      high = middle - 1;
    } else {
      return middle;
    }
  }
  return low > 0 ? low - 1 : 0;
}
function calculateRangeImpl(measurements, outerSize, scrollOffset, lanes, flat) {
  const lastIndex = measurements.length - 1;
  if (measurements.length <= lanes) {
    return { startIndex: 0, endIndex: lastIndex };
  }
  if (lanes === 1 && flat !== null) {
    const startIndex2 = findNearestBinarySearchFlat(
      flat,
      lastIndex,
      scrollOffset
    );
    let endIndex2 = startIndex2;
    const limit = scrollOffset + outerSize;
    while (endIndex2 < lastIndex && flat[endIndex2 * 2] + flat[endIndex2 * 2 + 1] < limit) {
      endIndex2++;
    }
    return { startIndex: startIndex2, endIndex: endIndex2 };
  }
  const getStart = (index) => measurements[index].start;
  let startIndex = findNearestBinarySearch(0, lastIndex, getStart, scrollOffset);
  let endIndex = startIndex;
  if (lanes === 1) {
    while (endIndex < lastIndex && measurements[endIndex].end < scrollOffset + outerSize) {
      endIndex++;
    }
  } else if (lanes > 1) {
    const endPerLane = Array(lanes).fill(0);
    while (endIndex < lastIndex && endPerLane.some((pos) => pos < scrollOffset + outerSize)) {
      const item = measurements[endIndex];
      endPerLane[item.lane] = item.end;
      endIndex++;
    }
    const startPerLane = Array(lanes).fill(scrollOffset + outerSize);
    while (startIndex >= 0 && startPerLane.some((pos) => pos >= scrollOffset)) {
      const item = measurements[startIndex];
      startPerLane[item.lane] = item.start;
      startIndex--;
    }
    startIndex = Math.max(0, startIndex - startIndex % lanes);
    endIndex = Math.min(lastIndex, endIndex + (lanes - 1 - endIndex % lanes));
  }
  return { startIndex, endIndex };
}

// src/dataset/table.js
var ROW_H = 26;
var WIDTHS2 = { run: 100, query_id: 84, query: 150, count: 64, metric: 84, difference: 100 };
var STICKY = ["run", "query_id", "query"];
var columnWidth = (col) => col.kind === "text" ? WIDTHS2[col.key] || 120 : WIDTHS2[col.kind] || 86;
function stickyLeft(cols, gap = 6) {
  let left = 0;
  let leading = true;
  return cols.map((col) => {
    leading = leading && STICKY.includes(col.key);
    if (!leading) return null;
    const at = left;
    left += columnWidth(col) + gap;
    return at;
  });
}
function sortFor(col, controls) {
  if (controls.sort_by === col.key) return { sort_by: col.key, descending: !controls.descending };
  if (col.kind === "metric") return { sort_by: col.key, descending: !!col.lower_is_better };
  return { sort_by: col.key, descending: col.kind !== "text" };
}
function scrollFor(index, scrollTop, clientHeight) {
  const top = ROW_H + index * ROW_H;
  if (top < scrollTop + ROW_H) return top - ROW_H;
  if (top + ROW_H > scrollTop + clientHeight) return top + ROW_H - clientHeight;
  return null;
}
function metricCell(value, status) {
  if (status === 1) return { text: "Undef", cls: "rw-ds-undef" };
  if (status === 2) return { text: "n/c", cls: "rw-ds-nc" };
  return { text: fmt(value), cls: "rw-num" };
}
function reviewMark(row) {
  const r3 = row.values.reviewed;
  if (r3 === 2) return html`<span class="rw-ds-reviewed" title="every label of this sample reviewed" data-reviewed="all">✓ </span>`;
  if (r3 === 1) return html`<span class="rw-ds-reviewed rw-ds-partly" title="some labels of this sample reviewed" data-reviewed="some">◐ </span>`;
  return null;
}
function filtersInWords(view, labelOf) {
  const c3 = view.controls;
  const parts = [];
  if (c3.run) parts.push(`run ${c3.run}`);
  if (c3.text) parts.push(`“${c3.text}”`);
  if (c3.expression) parts.push(c3.expression);
  for (const x2 of c3.conditions || []) parts.push(x2);
  if (c3.slice) parts.push(`slice ${c3.slice}`);
  const b2 = c3.brush || {};
  if (b2.metric) parts.push(`${labelOf[b2.metric] || b2.metric} ${b2.undefined ? "Undefined" : `${b2.lo}–${b2.hi}`}`);
  return parts.join(" and ");
}
var CLEARED = { expression: "", text: "", conditions: [], slice: "", brush: {}, run: "" };
function Table2({ view, store, labelOf, set }) {
  const scrollRef = A2(null);
  const [, bump] = y2((x2) => x2 + 1, 0);
  const virt = A2(null);
  if (!virt.current) {
    virt.current = new Virtualizer({
      count: view.count,
      getScrollElement: () => scrollRef.current,
      estimateSize: () => ROW_H,
      overscan: 12,
      scrollMargin: ROW_H,
      // the sticky header row above the rows
      observeElementRect,
      observeElementOffset,
      scrollToFn: elementScroll,
      onChange: () => bump()
    });
  }
  const v3 = virt.current;
  v3.setOptions({ ...v3.options, count: view.count });
  _2(() => v3._didMount(), []);
  _2(() => {
    v3._willUpdate();
  });
  h2(() => {
    if (scrollRef.current) scrollRef.current.scrollTop = 0;
  }, [JSON.stringify(view.controls)]);
  h2(() => {
    const el = scrollRef.current;
    const i3 = view.selected.index;
    if (!el || i3 < 0) return;
    const top = scrollFor(i3, el.scrollTop, el.clientHeight);
    if (top !== null) el.scrollTop = top;
  }, [view.selected.row, view.selected.index, JSON.stringify(view.controls)]);
  const items = v3.getVirtualItems();
  if (items.length) store.ensure(items[0].index, items[items.length - 1].index, view.count);
  const cols = view.columns;
  const c3 = view.controls;
  const left = stickyLeft(cols);
  const template = cols.map((col) => `${columnWidth(col)}px`).join(" ");
  const width = cols.reduce((sum, col) => sum + columnWidth(col) + 6, 12);
  const stick = (k3, extra = "") => left[k3] === null ? extra : `${extra} rw-ds-stick`;
  const at = (k3) => left[k3] === null ? null : `left:${left[k3]}px`;
  const [late, setLate] = d2(false);
  h2(() => {
    const t4 = setTimeout(() => setLate(true), 1500);
    return () => clearTimeout(t4);
  }, []);
  const waiting = late && store.seeded > 0 && !store.answered;
  return html`<div class="rw-ds-table" role="grid" aria-rowcount=${view.count} data-testid="table">
    <div class="rw-ds-scroll" ref=${scrollRef}>
    <div class="rw-ds-row rw-ds-head" style=${`grid-template-columns:${template};width:${width}px`} role="row">
      ${cols.map((col, k3) => html`<button role="columnheader" class=${stick(k3, `rw-ds-th${c3.sort_by === col.key ? " rw-active" : ""}`)}
          style=${at(k3)} title=${`Sort by ${col.label}${col.kind === "metric" ? col.lower_is_better ? " (lower is better: worst first = highest)" : " (higher is better: worst first = lowest)" : ""}`}
          data-col=${col.key} onClick=${() => set(sortFor(col, c3))}>
          ${col.label}${c3.sort_by === col.key ? c3.descending ? " ▼" : " ▲" : ""}</button>`)}
    </div>
      <div style=${`height:${v3.getTotalSize()}px;width:${width}px;position:relative`}>
        ${items.map((it) => {
    const row = store.get(it.index);
    const failed = row ? "" : store.failedAt(it.index);
    const sel = row && row.position === view.selected.row;
    return html`<div key=${it.index} role="row" data-index=${it.index} aria-selected=${sel ? "true" : "false"}
              class=${`rw-ds-row${sel ? " rw-ds-selected" : ""}`}
              style=${`grid-template-columns:${template};position:absolute;top:0;left:0;width:${width}px;height:${ROW_H}px;transform:translateY(${it.start - ROW_H}px)`}
              onClick=${() => row && set({ selected: row.position })}>
            ${cols.map((col, k3) => {
      if (!row) return failed ? k3 === 0 ? html`<span class="rw-ds-row-error" data-testid="row-error"
                title=${failed}>Rows not loaded: ${failed}</span>` : "" : html`<span class=${stick(k3, "rw-ds-loading")} style=${at(k3)}>…</span>`;
      if (col.kind === "text") {
        if (col.key === "query" && !row.query)
          return html`<span class=${stick(k3, "rw-ds-text rw-hint")} style=${at(k3)} title="this sample has no question">no question</span>`;
        const text = col.key === "query" ? row.query : showId(row[col.key]);
        return html`<span class=${stick(k3, "rw-ds-text")} style=${at(k3)} title=${text}>${k3 === 0 ? reviewMark(row) : null}${text}</span>`;
      }
      if (col.kind === "metric") {
        const m3 = metricCell(row.values[col.key], row.status[col.key]);
        return html`<span class=${m3.cls}>${m3.text}</span>`;
      }
      const value = row.values[col.key];
      if (col.kind === "mode") return html`<span class="rw-num">${Number.isNaN(value) ? "" : value}</span>`;
      return html`<span class="rw-num">${col.kind === "count" ? value : Number.isNaN(value) ? "" : (value > 0 ? "+" : "") + fmt(value)}</span>`;
    })}
          </div>`;
  })}
      </div>
      ${view.count === 0 ? html`<div class="rw-ds-empty" role="status" data-testid="empty">
        No sample matches ${filtersInWords(view, labelOf) || "the filters"}.
        <button data-testid="clear-all" onClick=${() => set(CLEARED)}>Clear the filters</button></div>` : ""}
    </div>
    ${waiting ? html`<div class="rw-ds-saved" role="note" data-testid="saved-rows">${`Saved with the notebook: the first ${store.seeded.toLocaleString("en-US")} of ${view.count.toLocaleString("en-US")} rows; run the cell for the rest.`}</div>` : ""}
  </div>`;
}

// src/dataset/trust.js
function cellText(v3) {
  if (v3 === null || v3 === void 0) return html`<span class="rw-ds-undef">Undefined</span>`;
  return String(v3);
}
function TrustTable({ t: t4, caption, testid }) {
  const reason = t4.columns.indexOf("reason");
  return html`<div class="rw-ds-trust-wrap"><table class="rw-table rw-ds-trust-table" data-testid=${testid}>
    <caption>${caption}</caption>
    <thead><tr>${t4.columns.map((c3) => html`<th scope="col">${c3}</th>`)}</tr></thead>
    <tbody>${t4.rows.map((row) => html`<tr title=${reason >= 0 && row[reason] ? row[reason] : null}>${row.map((v3, k3) => html`<td class=${k3 === reason ? "rw-ds-reason" : "rw-num"}>${k3 === reason ? v3 || "" : cellText(v3)}</td>`)}</tr>`)}</tbody>
  </table></div>`;
}
var plural2 = (n4, word) => `${n4} ${word}${n4 === 1 ? "" : "s"}`;
function Confusion({ k: k3, m: m3, binary, pick }) {
  return html`<table class="rw-table rw-ds-confusion" data-testid="confusion">
    <caption>Judge (rows) × reviewer (columns): labels, and the share of the judge's row</caption>
    <thead><tr><th scope="col">judge ↓ · reviewer →</th>${m3.labels.map((l3) => html`<th scope="col">${l3}</th>`)}<th scope="col">judge n</th></tr></thead>
    <tbody>${m3.labels.map((judge, i3) => html`<tr>
      <th scope="row">${judge}</th>
      ${m3.labels.map((reviewer, j3) => {
    const n4 = m3.counts[i3][j3];
    const rate = m3.rates[i3][j3];
    const said2 = `judge ${judge}, reviewer ${reviewer}: ${plural2(n4, "label")} in ${plural2(m3.samples[i3][j3], "sample")}`;
    return html`<td class=${i3 === j3 ? "rw-ds-agree" : "rw-ds-disagree"}>
          <button class="rw-ds-cell" data-testid="confusion-cell" data-judge=${judge} data-reviewer=${reviewer} disabled=${!n4}
            title=${n4 ? `${said2}: show them in the table` : said2} aria-label=${said2}
            onClick=${() => pick({ kind: k3.kind, run: k3.run, judge, reviewer, binary })}>
            <b>${n4}</b> <span class="rw-ds-rate">${rate === null ? html`<span class="rw-ds-undef" title=${`the judge never says ${judge}`}>Undefined</span>` : rate}</span>
          </button></td>`;
  })}
      <td class="rw-num">${m3.counts[i3].reduce((a3, b2) => a3 + b2, 0)}</td>
    </tr>`)}</tbody>
  </table>`;
}
function Kind({ k: k3, pick }) {
  const [binary, setBinary] = d2(false);
  const m3 = binary ? k3.binary : k3.classes;
  const kappaText = (v3) => v3 === null ? html`<span class="rw-ds-undef" title=${m3.reason}>Undefined</span>` : v3;
  return html`<section class="rw-ds-kind" data-testid=${`kind-${k3.kind}`} data-kind=${k3.kind}>
    <h4>${k3.kind}${k3.run ? ` · ${showId(k3.run)}` : ""} <span class="rw-hint">(${plural2(k3.n, "reviewed label")})</span></h4>
    <p data-testid="kappa-line">kappa <b>${kappaText(m3.kappa)}</b>${m3.kappa_interval ? ` (95% ${m3.kappa_interval})` : ""}${" · "}agreement ${kappaText(m3.agreement)}${" · "}base rate ${m3.base_rate === null ? kappaText(null) : html`<b>${m3.base_rate}</b> (the reviewers' majority label, ${m3.majority_label}: a judge always saying it would agree this often)`}
      ${k3.binary ? html`${" · "}<label><input type="checkbox" data-testid="binary" checked=${binary} onChange=${(e3) => setBinary(e3.target.checked)} /> 2-class view (Entailment / not entailed)</label>` : ""}</p>
    <div class="rw-ds-trust-wrap"><${Confusion} k=${k3} m=${m3} binary=${binary} pick=${pick} /></div>
    <${TrustTable} t=${m3.per_class} caption="Per class: precision (of the judge's labels of it), recall (of the reviewers'), F1" testid="per-class" />
  </section>`;
}
function Team({ team, request }) {
  return html`<section class="rw-ds-team" data-testid="team">
    <h4>Reviewers</h4>
    <label>Labels in force: <select data-testid="use" value=${team.use}
      onChange=${(e3) => request("trust_use", { use: e3.target.value }).catch(() => null)}>
      <option value="adjudicated">adjudicated</option>
      ${team.reviewers.map((n4) => html`<option value=${n4}>${n4 || "(unnamed)"}</option>`)}
    </select></label>
    ${Object.entries(team.runs).map(([run, t4]) => html`<div key=${run}>
      <${TrustTable} t=${t4.table} testid="reviewer-agreement"
        caption=${`Reviewer–reviewer agreement per label kind over the labels two or more reviewed: Cohen's kappa for two reviewers, Krippendorff's alpha for more${run ? ` · ${run}` : ""}`} />
      ${t4.pairs.rows.length > 1 ? html`<${TrustTable} t=${t4.pairs} testid="reviewer-pairs" caption="Each pair of reviewers: Cohen's kappa" />` : ""}
    </div>`)}
  </section>`;
}
function Reviews({ part: r3, request, set }) {
  const trust = r3.trust;
  h2(() => {
    if (!trust || !trust.stale) return void 0;
    const t4 = setTimeout(() => request("trust", { open: true }).catch(() => null), PAUSE);
    return () => clearTimeout(t4);
  });
  const pick = (cell) => request("trust_cell", cell).then((reply) => set({ samples: { label: reply.label, query_ids: reply.query_ids }, ...reply.run ? { run: reply.run } : {} })).catch(() => null);
  return html`<div class="rw-ds-panel rw-ds-reviews" data-testid="run-reviews">
    ${r3.runs.length ? r3.runs.map((x2) => html`<p data-testid="run-review-line"><b>${showId(x2.run)}:</b> ${x2.line} (${x2.samples} sample${x2.samples === 1 ? "" : "s"})</p>`) : html`<p class="rw-hint">No label reviewed yet: open a sample below and press E / N / C on a claim row or a matrix cell.</p>`}
    ${r3.problems.length ? html`<details><summary>${r3.problems.length} review(s) not applied</summary><ul>${r3.problems.map((p3) => html`<li>${p3}</li>`)}</ul></details>` : ""}
    <details open=${!!trust} data-testid="trust" onToggle=${(e3) => e3.target.open !== !!trust && request("trust", { open: e3.target.open }).catch(() => null)}>
      <summary>Can I trust the judge? Agreement with the reviewers and corrected scores</summary>
      ${trust ? html`<p class="rw-hint">${trust.stale ? html`<b data-testid="trust-stale">Updating after the latest reviews… </b>` : ""}Over ${trust.n_reviews} reviewed label(s)${trust.team ? `; labels in force: ${trust.team.use === "adjudicated" ? "adjudicated, else the latest review" : `${trust.team.use || "(unnamed)"}'s`}` : ""}. Undefined where a figure has no data (hover for why). Click a cell of a matrix to show its samples in the table.</p>
        ${trust.team ? html`<${Team} team=${trust.team} request=${request} />` : ""}
        ${(trust.kinds || []).map((k3) => html`<${Kind} key=${`${k3.kind} ${k3.run}`} k=${k3} pick=${pick} />`)}
        <${TrustTable} t=${trust.agreement} caption="Judge–reviewer agreement per label kind (kappa with its bootstrap interval, the majority-label base rate beside it)" testid="agreement" />
        ${Object.entries(trust.corrected).map(([run, t4]) => html`<${TrustTable} key=${run} t=${t4} testid="corrected"
          caption=${`Each metric's mean three ways, 95% intervals: judge only, reviewed only, prediction-powered (corrected); discordant: reviewed samples whose reviewed value differs from the judge's${run ? ` · ${run}` : ""}`} />`)}` : html`<p class="rw-hint">Open to compute.</p>`}
    </details>
  </div>`;
}
var panel14 = {
  key: "trust",
  place: "above",
  shows: (view) => !!view.reviews,
  part: (view) => view.reviews,
  traits: ["samples", "run"],
  Panel: Reviews
};

// src/dataset/whatif.js
var H3 = 104;
var PAD3 = { left: 38, right: 6, top: 8, bottom: 34 };
var STEP2 = 19;
var MIN_W = 150;
var n3 = (x2) => x2.toLocaleString("en-US");
function records(table) {
  if (!table) return [];
  return table.rows.map((row) => Object.fromEntries(table.columns.map((c3, i3) => [c3, row[i3]])));
}
function curveByMetric(table, labels = {}) {
  const by = /* @__PURE__ */ new Map();
  for (const r3 of records(table)) {
    if (!by.has(r3.metric)) by.set(r3.metric, { key: r3.metric, label: labels[r3.metric] || r3.metric, points: [] });
    by.get(r3.metric).points.push({ k: r3.k, mean: r3.mean, defined: r3.defined, undefined: r3.undefined, not_computable: r3.not_computable });
  }
  for (const m3 of by.values()) m3.points.sort((a3, b2) => a3.k - b2.k);
  return [...by.values()];
}
function linePath(points, x2, y3) {
  let d3 = "";
  let pen = false;
  for (const p3 of points) {
    if (p3.mean === null || p3.mean === void 0) {
      pen = false;
      continue;
    }
    d3 += `${pen ? "L" : "M"}${x2(p3.k).toFixed(1)},${y3(p3.mean).toFixed(1)}`;
    pen = true;
  }
  return d3;
}
function signed2(v3) {
  if (v3 === null || v3 === void 0 || Number.isNaN(v3)) return "";
  const s3 = Number(v3).toFixed(3);
  return v3 > 0 ? `+${s3}` : v3 < 0 ? `−${s3.slice(1)}` : s3;
}
function shortCount(c3) {
  if (c3 < 1e3) return String(c3);
  return c3 < 1e4 ? `${(Math.floor(c3 / 100) / 10).toString()}k` : `${Math.floor(c3 / 1e3)}k`;
}
function Curve({ metric }) {
  const pts = metric.points;
  const ks = pts.map((p3) => p3.k);
  const lo = Math.min(...ks);
  const hi = Math.max(...ks);
  const digits = Math.max(...pts.map((p3) => shortCount(p3.undefined).length));
  const W2 = Math.max(MIN_W, PAD3.left + PAD3.right + Math.max(STEP2, 6 * digits + 6) * pts.length);
  const inner = W2 - PAD3.left - PAD3.right;
  const slot = inner / pts.length;
  const x2 = (k3) => PAD3.left + slot / 2 + (hi === lo ? 0 : (k3 - lo) / (hi - lo) * (inner - slot));
  const y3 = (v3) => PAD3.top + (H3 - PAD3.top - PAD3.bottom) * (1 - Math.min(1, Math.max(0, v3)));
  const base = H3 - PAD3.bottom;
  const tip = (p3) => `k = ${p3.k}: ${p3.mean === null ? "Undefined (no defined sample)" : `mean ${meanText(p3.mean)} over ${p3.defined} defined`} · ${p3.undefined} Undefined${p3.not_computable ? ` · ${p3.not_computable} not computable` : ""}`;
  return html`<figure class="rw-wi-fig" data-testid="wi-curve" data-metric=${metric.key}>
    <figcaption>${metric.label}</figcaption>
    <svg class="rw-ds-chart" width=${W2} height=${H3} role="img"
        aria-label=${`${metric.label} if only the top k passages were kept, k = ${lo} to ${hi}`}>
      <rect class="rw-ds-frame" x=${PAD3.left} y=${PAD3.top} width=${W2 - PAD3.left - PAD3.right} height=${base - PAD3.top} />
      <text x=${PAD3.left - 4} y=${PAD3.top + 8} class="rw-ds-axis" text-anchor="end">1</text>
      <text x=${PAD3.left - 4} y=${base} class="rw-ds-axis" text-anchor="end">0</text>
      <path class="rw-wi-line" d=${linePath(pts, x2, y3)} />
      ${pts.map((p3) => html`<g key=${p3.k} data-k=${p3.k} data-mean=${p3.mean === null ? "" : p3.mean} data-undefined=${p3.undefined}>
        ${p3.mean === null ? html`<text class="rw-wi-none" x=${x2(p3.k)} y=${PAD3.top + 12} text-anchor="middle">U<title>${tip(p3)}</title></text>` : html`<circle class="rw-wi-dot" cx=${x2(p3.k)} cy=${y3(p3.mean)} r="3"><title>${tip(p3)}</title></circle>`}
        <text class="rw-ds-axis" x=${x2(p3.k)} y=${base + 12} text-anchor="middle">${p3.k}</text>
        <text class=${`rw-wi-undef${p3.undefined ? "" : " rw-wi-zero"}`} x=${x2(p3.k)} y=${base + 25} text-anchor="middle"
          data-testid="wi-undef">${shortCount(p3.undefined)}<title>${tip(p3)}</title></text>
      </g>`)}
      <text class="rw-ds-axis" x=${PAD3.left - 4} y=${base + 12} text-anchor="end">k</text>
      <text class="rw-wi-undef" x=${PAD3.left - 4} y=${base + 25} text-anchor="end">Undef</text>
    </svg>
  </figure>`;
}
function ruleWords(rule) {
  return [rule.doc_id ? `doc_id ~ /${rule.doc_id}/` : "", rule.text ? `text ~ /${rule.text}/` : ""].filter(Boolean).join(" or ");
}
function DropTable({ result, rule }) {
  const rows = records(result.dropped);
  const labels = result.labels || {};
  const cell = (v3) => v3 === null || v3 === void 0 ? html`<span class="rw-ds-undef">Undefined</span>` : meanText(v3);
  return html`<div class="rw-ds-wide">
    <p class="rw-hint" data-testid="wi-dropped">${`Without the ${n3(result.n_dropped)} passage${result.n_dropped === 1 ? "" : "s"} matching ${ruleWords(rule)} (in ${n3(result.samples_touched)} of the ${n3(result.samples)} samples):`}</p>
    <table class="rw-table rw-wi-table" data-testid="wi-table">
      <thead><tr><th scope="col">metric</th><th scope="col">before</th><th scope="col">after</th><th scope="col">change</th>
        <th scope="col">Undefined before</th><th scope="col">Undefined after</th></tr></thead>
      <tbody>${rows.map((r3) => html`<tr key=${r3.metric} data-metric=${r3.metric}>
        <th scope="row">${labels[r3.metric] || r3.metric}</th><td class="rw-num">${cell(r3.before)}</td><td class="rw-num">${cell(r3.after)}</td>
        <td class="rw-num">${signed2(r3.change)}</td>
        <td class="rw-num">${r3.undefined_before}</td><td class="rw-num">${r3.undefined_after}</td></tr>`)}</tbody>
    </table></div>`;
}
function rowsKey(view) {
  const c3 = view.controls || {};
  const reviews = view.reviews ? view.reviews.runs.map((r3) => [r3.run, r3.reviews]) : [];
  return JSON.stringify([
    c3.run || "",
    c3.text || "",
    c3.expression || "",
    c3.conditions || [],
    c3.slice || "",
    c3.brush || {},
    view.count,
    reviews
  ]);
}
function WhatIf({ part: view, request }) {
  const [rule, setRule] = d2({ doc_id: "", text: "" });
  const [draft, setDraft] = d2({ doc_id: "", text: "" });
  const [result, setResult] = d2(null);
  const [error, setError] = d2("");
  const [busy, setBusy] = d2(false);
  const latest = A2(0);
  const ask = (wanted) => {
    latest.current += 1;
    const mine = latest.current;
    setBusy(true);
    return request("whatif", { doc_id: wanted.doc_id, text: wanted.text }).then((reply) => {
      if (mine !== latest.current) return;
      setResult(reply);
      setRule(wanted);
      setError("");
      setBusy(false);
    }, (err) => {
      if (mine !== latest.current) return;
      setError(`The what-if failed: ${err.message}`);
      setBusy(false);
    });
  };
  h2(() => {
    ask(rule);
  }, [rowsKey(view)]);
  const apply = () => ask({ doc_id: draft.doc_id, text: draft.text });
  const clear = () => {
    setDraft({ doc_id: "", text: "" });
    ask({ doc_id: "", text: "" });
  };
  const onKey = (e3) => {
    if (e3.key === "Enter") apply();
  };
  const metrics = result ? curveByMetric(result.top_k, result.labels) : [];
  const edited = draft.doc_id !== rule.doc_id || draft.text !== rule.text;
  return html`<div class="rw-ds-panel rw-wi" data-testid="whatif" aria-busy=${busy ? "true" : "false"}>
    <p class="rw-hint" data-testid="wi-over">${result ? `Over the ${n3(result.samples)} samples the filters keep${view.runs.length > 1 ? ` of run ${result.run}` : ""}: the labels already judged, rescored without some passages (no judge call).` : busy ? "Computing the what-ifs…" : ""}</p>
    ${result ? html`<h4>If the retriever kept only its top k passages
        <span class="rw-hint">each metric that reads passages; under each k, how many samples are Undefined there (never averaged as 0)</span></h4>
      ${metrics.length ? html`<div class="rw-wi-curves">${metrics.map((m3) => html`<${Curve} key=${m3.key} metric=${m3} />`)}</div>` : html`<p class="rw-hint" data-testid="wi-no-curve">No retrieved passage among these samples: no top-k curve.</p>`}` : ""}
    <h4>If passages matching a rule were dropped</h4>
    <div class="rw-wi-rule">
      <label>doc_id matches <input type="text" data-testid="wi-doc-id" value=${draft.doc_id} placeholder="^wiki-|-0$" spellcheck="false"
        onInput=${(e3) => {
    const doc_id = e3.target.value;
    setDraft((d3) => ({ ...d3, doc_id }));
  }} onKeyDown=${onKey} /></label>
      <label>or text matches <input type="text" data-testid="wi-text" value=${draft.text} placeholder="(?i)cookie policy" spellcheck="false"
        onInput=${(e3) => {
    const text = e3.target.value;
    setDraft((d3) => ({ ...d3, text }));
  }} onKeyDown=${onKey} /></label>
      <button data-testid="wi-apply" class=${edited ? "rw-ds-edited" : ""} onClick=${apply}>Drop them</button>
      ${rule.doc_id || rule.text ? html`<button data-testid="wi-clear" onClick=${clear}>Keep every passage</button>` : ""}
      <span class="rw-hint">regular expressions (RE2: no lookaround or backreference), found anywhere in the field</span>
    </div>
    ${error ? html`<div class="rw-ds-error" role="alert" data-testid="wi-error">${error}</div>` : ""}
    ${result && result.dropped ? html`<${DropTable} result=${result} rule=${rule} />` : ""}
  </div>`;
}
var panel15 = {
  key: "whatif",
  title: "What if",
  place: "tab",
  shows: (view) => !!view.whatif,
  part: (view) => ({ controls: view.controls, reviews: view.reviews, count: view.count, runs: view.runs }),
  traits: [],
  Panel: WhatIf
};

// src/dataset.js
var PANELS = [panel14, panel3, panel13, panel6, panel15, panel7, panel10, panel12, panel9, panel11, panel, panel4, panel5, panel8, panel2];
var HOST_CHROME = 140;
function useViews(model, names) {
  const events = ["", "_base"];
  const [, bump] = y2((x2) => x2 + 1, 0);
  const on = A2(false);
  if (!on.current) {
    on.current = true;
    for (const n4 of names) events.forEach((e3) => model.on(`change:${n4}${e3}`, bump));
  }
  h2(() => () => names.forEach((n4) => events.forEach((e3) => model.off(`change:${n4}${e3}`, bump))), []);
  return Object.fromEntries(names.map((n4) => [n4, viewOf(model, n4)]));
}
function useDraft(value) {
  const [draft, setDraft] = d2(null);
  h2(() => {
    if (draft !== null && draft === value) setDraft(null);
  }, [value]);
  return [draft === null ? value : draft, setDraft, draft !== null && draft !== value];
}
function setTraits(model, patch) {
  for (const [k3, v3] of Object.entries(patch)) model.set(k3, v3);
  model.save_changes();
}
function traitSetter(model, key, traits) {
  return (patch) => {
    const other = Object.keys(patch).filter((k3) => !traits.includes(k3));
    if (other.length) throw new Error(`the ${key} panel may not set ${other.join(", ")}`);
    setTraits(model, patch);
  };
}
function ClusterNotice({ view, labelOf }) {
  const cl = view.cluster;
  const n4 = (x2) => x2.toLocaleString("en-US");
  const which = cl.descending ? "highest" : "lowest";
  return html`<div class="rw-ds-notice" role="note" data-testid="cluster-notice">
    <b>Dask-scored run, explored on the cluster.</b> The table shows the ${n4(view.count)} samples with the ${which}
    ${" "}${labelOf[cl.sort_by] || cl.sort_by} of ${n4(cl.matching)} matching (${n4(cl.defined)} with it defined), not all rows;
    the summary and charts cover all ${n4(cl.matching)}. Sort by another metric's header; filter with an expression or the
    distribution. Not available on a cluster run: ${cl.unavailable.join(", ")}.
  </div>`;
}
function App({ model, store }) {
  const views = useViews(model, ["_view", "_drill", "_other", "_rows", "_row_changes"]);
  const [, bump] = y2((x2) => x2 + 1, 0);
  store.onRows = bump;
  const view = views._view;
  const c3 = view ? view.controls : {};
  const [text, setText, textEdited] = useDraft(view ? c3.text : "");
  const [expr, setExpr, exprEdited] = useDraft(view ? c3.expression : "");
  const [tab, setTab] = d2("");
  const root = A2(null);
  const work = A2(null);
  _2(() => {
    if (!root.current || !work.current) return;
    const cell = root.current.closest(".jp-Cell, .cell") || root.current;
    const above = work.current.getBoundingClientRect().top - cell.getBoundingClientRect().top;
    const height = `max(420px, calc(100vh - ${Math.round(above + HOST_CHROME)}px))`;
    if (root.current.style.getPropertyValue("--rw-ds-work-h") !== height) root.current.style.setProperty("--rw-ds-work-h", height);
  });
  if (!view) return html`<div class="rw-hint">Loading…</div>`;
  store.reset(view.version, model.get("_rows"), model.get("_row_changes"));
  const labelOf = labelsOf(view.metrics);
  const set = (patch) => setTraits(model, patch);
  const request = (name, msg = {}) => store.requests.ask({ type: name, ...msg });
  const step = (delta) => store.requests.send({ type: "step", delta });
  const error = [view.error, store.requests.error].filter(Boolean).join("; ");
  const onKey = (e3) => navigate(e3, step, view.queue ? (by) => store.requests.send({ type: "queue", step: by }) : null);
  const b2 = c3.brush || {};
  const conditions = c3.conditions || [];
  const toggleCondition = (x2) => set({ conditions: toggled(conditions, x2) });
  const refused = view.refused && view.refused.expression;
  const shown = (place) => PANELS.filter((p3) => p3.place === place && p3.shows(view));
  const draw = (p3) => html`<${p3.Panel} key=${p3.key} part=${p3.part(view, views)} request=${request}
    set=${traitSetter(model, p3.key, p3.traits)} />`;
  const tabs = shown("tab");
  const open = tabs.find((p3) => p3.key === tab);
  return html`<div class="rw-ds" tabindex="0" onKeyDown=${onKey} ref=${root}>
    <div class="rw-ds-toolbar">
      ${view.runs.length > 1 ? html`<label>run <${TraitSelect} trait="run" value=${c3.run} options=${["", ...view.runs]}
        labels=${["all runs", ...view.runs]} set=${set} /></label>` : ""}
      ${view.cluster ? "" : html`<input type="text" placeholder="search query / response / id" value=${text} data-testid="search"
        class=${textEdited ? "rw-ds-edited" : ""} onInput=${(e3) => setText(e3.target.value)}
        onKeyDown=${(e3) => {
    if (e3.key === "Enter") set({ text });
    if (e3.key === "Escape") setText(null);
  }}
        onBlur=${() => text !== c3.text && set({ text })} />`}
      <input type="text" class=${`rw-ds-expr${exprEdited ? " rw-ds-edited" : ""}`} placeholder="filter: hallucination > 0 and claim_recall < 1" value=${expr}
        data-testid="expression" title=${exprEdited ? "Not applied yet: Enter applies, Escape goes back to the filter in force" : "filter expression"}
        onInput=${(e3) => setExpr(e3.target.value)}
        onKeyDown=${(e3) => {
    if (e3.key === "Enter") set({ expression: expr });
    if (e3.key === "Escape") setExpr(null);
  }} />
      <button onClick=${() => set({ expression: expr, text })}>Apply</button>
      ${b2.metric ? html`<button class="rw-ds-chip" data-testid="clear-brush" onClick=${() => set({ brush: {} })}>
        ✕ ${labelOf[b2.metric] || b2.metric} ${b2.undefined ? "Undefined" : `${b2.lo}–${b2.hi}`}</button>` : ""}
      ${conditions.map((x2) => html`<button class="rw-ds-chip" data-testid="condition" title="Remove this condition"
        onClick=${() => toggleCondition(x2)}>✕ ${x2}</button>`)}
      ${c3.samples && c3.samples.label ? html`<button class="rw-ds-chip" data-testid="clear-samples" title="Show every sample again"
        onClick=${() => set({ samples: {} })}>✕ ${c3.samples.label}</button>` : ""}
      <label><input type="checkbox" checked=${c3.percent} onChange=${(e3) => set({ percent: e3.target.checked })} /> ×100</label>
      <span class="rw-ds-count-all" data-testid="count"><b>${(view.cluster ? view.cluster.matching : view.count).toLocaleString("en-US")}</b> of ${view.total.toLocaleString("en-US")} samples${view.cluster ? ` · ${view.count.toLocaleString("en-US")} in the table` : ""}</span>
    </div>
    ${view.cluster ? html`<${ClusterNotice} view=${view} labelOf=${labelOf} />` : ""}
    ${error ? html`<div class="rw-ds-error" role="alert" data-testid="error">${error}</div>` : ""}
    ${refused && expr === refused ? html`<div class="rw-ds-notice" role="note" data-testid="not-applied">
      This filter was not applied (${view.refused.error}): the table still shows the ${view.count.toLocaleString("en-US")} samples of
      ${c3.expression ? html` the filter in force, <code>${c3.expression}</code>` : " no filter expression"}.
      <button onClick=${() => setExpr(null)}>Back to the filter in force</button></div>` : ""}
    ${shown("above").map(draw)}
    <div class="rw-ds-tabs" role="tablist">
      ${tabs.map((p3) => html`<button role="tab" aria-selected=${open === p3 ? "true" : "false"} data-tab=${p3.key}
        onClick=${() => setTab(open === p3 ? "" : p3.key)}>${p3.title}${open === p3 ? " ▴" : " ▾"}</button>`)}
    </div>
    ${open ? html`<div class="rw-ds-drawer" role="tabpanel" data-testid=${`drawer-${open.key}`} key="drawer">${draw(open)}</div>` : ""}
    <div class="rw-ds-work" data-testid="workspace" ref=${work} key="work">
      <div class="rw-ds-master">
        ${shown("master").map(draw)}
        <${Table2} view=${view} store=${store} labelOf=${labelOf} set=${set} />
      </div>
      ${shown("detail").map(draw)}
    </div>
  </div>`;
}
function render({ model, el }) {
  el.classList.add("rw-widget", "rw-dataset");
  const unkeep = keepKeys(el, { focusable: true });
  const store = new RowStore(model, () => {
  });
  R(html`<${App} model=${model} store=${store} />`, el);
  return () => {
    R(null, el);
    store.destroy();
    unkeep();
  };
}
var dataset_default = { render };

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

// live_dataset.js
var live_dataset_default = withLive(dataset_default);
export {
  live_dataset_default as default
};
