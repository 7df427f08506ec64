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
function m(n3, l3) {
  for (var u3 in l3) n3[u3] = l3[u3];
  return n3;
}
function b(n3) {
  n3 && n3.parentNode && n3.parentNode.removeChild(n3);
}
function k(l3, u3, t4) {
  var i3, r3, o3, e3 = {};
  for (o3 in u3) "key" == o3 ? i3 = u3[o3] : "ref" == o3 ? r3 = u3[o3] : e3[o3] = u3[o3];
  if (arguments.length > 2 && (e3.children = arguments.length > 3 ? n.call(arguments, 2) : t4), "function" == typeof l3 && null != l3.defaultProps) for (o3 in l3.defaultProps) void 0 === e3[o3] && (e3[o3] = l3.defaultProps[o3]);
  return x(l3, e3, i3, r3, null);
}
function x(n3, t4, i3, r3, o3) {
  var e3 = { type: n3, props: t4, key: i3, ref: r3, __k: null, __: null, __b: 0, __e: null, __c: null, constructor: void 0, __v: null == o3 ? ++u : o3, __i: -1, __u: 0 };
  return null == o3 && null != l.vnode && l.vnode(e3), e3;
}
function S(n3) {
  return n3.children;
}
function C(n3, l3) {
  this.props = n3, this.context = l3;
}
function $(n3, l3) {
  if (null == l3) return n3.__ ? $(n3.__, n3.__i + 1) : null;
  for (var u3; l3 < n3.__k.length; l3++) if (null != (u3 = n3.__k[l3]) && null != u3.__e) return u3.__e;
  return "function" == typeof n3.type ? $(n3) : null;
}
function I(n3) {
  if (n3.__P && n3.__d) {
    var u3 = n3.__v, t4 = u3.__e, i3 = [], r3 = [], o3 = m({}, u3);
    o3.__v = u3.__v + 1, l.vnode && l.vnode(o3), q(n3.__P, o3, u3, n3.__n, n3.__P.namespaceURI, 32 & u3.__u ? [t4] : null, i3, null == t4 ? $(u3) : t4, !!(32 & u3.__u), r3), o3.__v = u3.__v, o3.__.__k[o3.__i] = o3, D(i3, o3, r3), u3.__e = u3.__ = null, o3.__e != t4 && P(o3);
  }
}
function P(n3) {
  if (null != (n3 = n3.__) && null != n3.__c) return n3.__e = n3.__c.base = null, n3.__k.some(function(l3) {
    if (null != l3 && null != l3.__e) return n3.__e = n3.__c.base = l3.__e;
  }), P(n3);
}
function A(n3) {
  (!n3.__d && (n3.__d = true) && i.push(n3) && !H.__r++ || r != l.debounceRendering) && ((r = l.debounceRendering) || o)(H);
}
function H() {
  try {
    for (var n3, l3 = 1; i.length; ) i.length > l3 && i.sort(e), n3 = i.shift(), l3 = i.length, I(n3);
  } finally {
    i.length = H.__r = 0;
  }
}
function L(n3, l3, u3, t4, i3, r3, o3, e3, f3, c3, a3) {
  var s3, h3, p3, v3, y3, _3, g2 = t4 && t4.__k || w, m3 = l3.length;
  for (f3 = T(u3, l3, g2, f3, m3), s3 = 0; s3 < m3; s3++) null != (p3 = u3.__k[s3]) && (h3 = -1 != p3.__i && g2[p3.__i] || d, p3.__i = s3, _3 = q(n3, p3, h3, i3, r3, o3, e3, f3, c3, a3), v3 = p3.__e, p3.ref && h3.ref != p3.ref && (h3.ref && J(h3.ref, null, p3), a3.push(p3.ref, p3.__c || v3, p3)), null == y3 && null != v3 && (y3 = v3), 4 & p3.__u ? (f3 = j(p3, f3, n3), h3.__e && (h3.__e = null)) : "function" == typeof p3.type && void 0 !== _3 ? f3 = _3 : v3 && (f3 = v3.nextSibling), p3.__u &= -7);
  return u3.__e = y3, f3;
}
function T(n3, l3, u3, t4, i3) {
  var r3, o3, e3, f3, c3, a3 = u3.length, s3 = a3, h3 = 0;
  for (n3.__k = new Array(i3), r3 = 0; r3 < i3; r3++) null != (o3 = l3[r3]) && "boolean" != typeof o3 && "function" != typeof o3 ? ("string" == typeof o3 || "number" == typeof o3 || "bigint" == typeof o3 || o3.constructor == String ? o3 = n3.__k[r3] = x(null, o3, null, null, null) : g(o3) ? o3 = n3.__k[r3] = x(S, { children: o3 }, null, null, null) : void 0 === o3.constructor && o3.__b > 0 ? o3 = n3.__k[r3] = x(o3.type, o3.props, o3.key, o3.ref ? o3.ref : null, o3.__v) : n3.__k[r3] = o3, f3 = r3 + h3, o3.__ = n3, o3.__b = n3.__b + 1, e3 = null, -1 != (c3 = o3.__i = O(o3, u3, f3, s3)) && (s3--, (e3 = u3[c3]) && (e3.__u |= 2)), null == e3 || null == e3.__v ? (-1 == c3 && (i3 > a3 ? h3-- : i3 < a3 && h3++), "function" != typeof o3.type && (o3.__u |= 4)) : c3 != f3 && (c3 == f3 - 1 ? h3-- : c3 == f3 + 1 ? h3++ : (c3 > f3 ? h3-- : h3++, o3.__u |= 4))) : n3.__k[r3] = null;
  if (s3) for (r3 = 0; r3 < a3; r3++) null != (e3 = u3[r3]) && 0 == (2 & e3.__u) && (e3.__e == t4 && (t4 = $(e3)), K(e3, e3));
  return t4;
}
function j(n3, l3, u3) {
  var t4, i3;
  if ("function" == typeof n3.type) {
    for (t4 = n3.__k, i3 = 0; t4 && i3 < t4.length; i3++) t4[i3] && (t4[i3].__ = n3, l3 = j(t4[i3], l3, u3));
    return l3;
  }
  n3.__e != l3 && (l3 && n3.type && !l3.parentNode && (l3 = $(n3)), l3 = u3.insertBefore(n3.__e, l3 || null));
  do {
    l3 = l3 && l3.nextSibling;
  } while (null != l3 && 8 == l3.nodeType);
  return l3;
}
function O(n3, l3, u3, t4) {
  var i3, r3, o3, e3 = n3.key, f3 = n3.type, c3 = l3[u3], a3 = null != c3 && 0 == (2 & c3.__u);
  if (null === c3 && null == e3 || a3 && e3 == c3.key && f3 == c3.type) return u3;
  if (t4 > (a3 ? 1 : 0)) {
    for (i3 = u3 - 1, r3 = u3 + 1; i3 >= 0 || r3 < l3.length; ) if (null != (c3 = l3[o3 = i3 >= 0 ? i3-- : r3++]) && 0 == (2 & c3.__u) && e3 == c3.key && f3 == c3.type) return o3;
  }
  return -1;
}
function z(n3, l3, u3) {
  "-" == l3[0] ? n3.setProperty(l3, null == u3 ? "" : u3) : n3[l3] = null == u3 ? "" : "number" != typeof u3 || _.test(l3) ? u3 : u3 + "px";
}
function N(n3, l3, u3, t4, i3) {
  var r3, o3;
  n: if ("style" == l3) if ("string" == typeof u3) n3.style.cssText = u3;
  else {
    if ("string" == typeof t4 && (n3.style.cssText = t4 = ""), t4) for (l3 in t4) u3 && l3 in u3 || z(n3.style, l3, "");
    if (u3) for (l3 in u3) t4 && u3[l3] == t4[l3] || z(n3.style, l3, u3[l3]);
  }
  else if ("o" == l3[0] && "n" == l3[1]) r3 = l3 != (l3 = l3.replace(s, "$1")), o3 = l3.toLowerCase(), l3 = o3 in n3 || "onFocusOut" == l3 || "onFocusIn" == l3 ? o3.slice(2) : l3.slice(2), n3.l || (n3.l = {}), n3.l[l3 + r3] = u3, u3 ? t4 ? u3[a] = t4[a] : (u3[a] = h, n3.addEventListener(l3, r3 ? v : p, r3)) : n3.removeEventListener(l3, r3 ? v : p, r3);
  else {
    if ("http://www.w3.org/2000/svg" == i3) l3 = l3.replace(/xlink(H|:h)/, "h").replace(/sName$/, "s");
    else if ("width" != l3 && "height" != l3 && "href" != l3 && "list" != l3 && "form" != l3 && "tabIndex" != l3 && "download" != l3 && "rowSpan" != l3 && "colSpan" != l3 && "role" != l3 && "popover" != l3 && l3 in n3) try {
      n3[l3] = null == u3 ? "" : u3;
      break n;
    } catch (n4) {
    }
    "function" == typeof u3 || (null == u3 || false === u3 && "-" != l3[4] ? n3.removeAttribute(l3) : n3.setAttribute(l3, "popover" == l3 && 1 == u3 ? "" : u3));
  }
}
function V(n3) {
  return function(u3) {
    if (this.l) {
      var t4 = this.l[u3.type + n3];
      if (null == u3[c]) u3[c] = h++;
      else if (u3[c] < t4[a]) return;
      return t4(l.event ? l.event(u3) : u3);
    }
  };
}
function q(n3, u3, t4, i3, r3, o3, e3, f3, c3, a3) {
  var s3, h3, p3, v3, y3, d3, _3, k3, x2, M, I2, P2, A3, H2, T3, j3, F = u3.type;
  if (void 0 !== u3.constructor) return null;
  128 & t4.__u && (c3 = !!(32 & t4.__u), o3 = [f3 = u3.__e = t4.__e]), (s3 = l.__b) && s3(u3);
  n: if ("function" == typeof F) {
    h3 = e3.length;
    try {
      if (x2 = u3.props, M = F.prototype && F.prototype.render, I2 = (s3 = F.contextType) && i3[s3.__c], P2 = s3 ? I2 ? I2.props.value : s3.__ : i3, t4.__c ? k3 = (p3 = u3.__c = t4.__c).__ = p3.__E : (M ? u3.__c = p3 = new F(x2, P2) : (u3.__c = p3 = new C(x2, P2), p3.constructor = F, p3.render = Q), I2 && I2.sub(p3), p3.state || (p3.state = {}), p3.__n = i3, v3 = p3.__d = true, p3.__h = [], p3._sb = []), M && null == p3.__s && (p3.__s = p3.state), M && null != F.getDerivedStateFromProps && (p3.__s == p3.state && (p3.__s = m({}, p3.__s)), m(p3.__s, F.getDerivedStateFromProps(x2, p3.__s))), y3 = p3.props, d3 = p3.state, p3.__v = u3, v3) M && null == F.getDerivedStateFromProps && null != p3.componentWillMount && p3.componentWillMount(), M && null != p3.componentDidMount && p3.__h.push(p3.componentDidMount);
      else {
        if (M && null == F.getDerivedStateFromProps && x2 !== y3 && null != p3.componentWillReceiveProps && p3.componentWillReceiveProps(x2, P2), u3.__v == t4.__v || !p3.__e && null != p3.shouldComponentUpdate && false === p3.shouldComponentUpdate(x2, p3.__s, P2)) {
          u3.__v != t4.__v && (p3.props = x2, p3.state = p3.__s, p3.__d = false), u3.__e = t4.__e, u3.__k = t4.__k, u3.__k.some(function(n4) {
            n4 && (n4.__ = u3);
          }), w.push.apply(p3.__h, p3._sb), p3._sb = [], p3.__h.length && e3.push(p3), f3 = $(t4);
          break n;
        }
        null != p3.componentWillUpdate && p3.componentWillUpdate(x2, p3.__s, P2), M && null != p3.componentDidUpdate && p3.__h.push(function() {
          p3.componentDidUpdate(y3, d3, _3);
        });
      }
      if (p3.context = P2, p3.props = x2, p3.__P = n3, p3.__e = false, A3 = l.__r, H2 = 0, M) p3.state = p3.__s, p3.__d = false, A3 && A3(u3), s3 = p3.render(p3.props, p3.state, p3.context), w.push.apply(p3.__h, p3._sb), p3._sb = [];
      else do {
        p3.__d = false, A3 && A3(u3), s3 = p3.render(p3.props, p3.state, p3.context), p3.state = p3.__s;
      } while (p3.__d && ++H2 < 25);
      p3.state = p3.__s, null != p3.getChildContext && (i3 = m(m({}, i3), p3.getChildContext())), M && !v3 && null != p3.getSnapshotBeforeUpdate && (_3 = p3.getSnapshotBeforeUpdate(y3, d3)), T3 = null != s3 && s3.type === S && null == s3.key ? E(s3.props.children) : s3, f3 = L(n3, g(T3) ? T3 : [T3], u3, t4, i3, r3, o3, e3, f3, c3, a3), p3.base = u3.__e, u3.__u &= -161, p3.__h.length && e3.push(p3), k3 && (p3.__E = p3.__ = null);
    } catch (n4) {
      if (e3.length = h3, u3.__v = null, c3 || null != o3) {
        if (n4.then) {
          for (u3.__u |= c3 ? 160 : 128; f3 && 8 == f3.nodeType && f3.nextSibling; ) f3 = f3.nextSibling;
          null != o3 && (o3[o3.indexOf(f3)] = null), u3.__e = f3;
        } else if (null != o3) for (j3 = o3.length; j3--; ) b(o3[j3]);
      } else u3.__e = t4.__e;
      null == u3.__k && (u3.__k = t4.__k || []), n4.then || B(u3), l.__e(n4, u3, t4);
    }
  } else null == o3 && u3.__v == t4.__v ? (u3.__k = t4.__k, u3.__e = t4.__e) : f3 = u3.__e = G(t4.__e, u3, t4, i3, r3, o3, e3, c3, a3);
  return (s3 = l.diffed) && s3(u3), 128 & u3.__u ? void 0 : f3;
}
function B(n3) {
  n3 && (n3.__c && (n3.__c.__e = true), n3.__k && n3.__k.some(B));
}
function D(n3, u3, t4) {
  for (var i3 = 0; i3 < t4.length; i3++) J(t4[i3], t4[++i3], t4[++i3]);
  l.__c && l.__c(u3, n3), n3.some(function(u4) {
    try {
      n3 = u4.__h, u4.__h = [], n3.some(function(n4) {
        n4.call(u4);
      });
    } catch (n4) {
      l.__e(n4, u4.__v);
    }
  });
}
function E(n3) {
  return "object" != typeof n3 || null == n3 || n3.__b > 0 ? n3 : g(n3) ? n3.map(E) : void 0 !== n3.constructor ? null : m({}, n3);
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
function J(n3, u3, t4) {
  try {
    if ("function" == typeof n3) {
      var i3 = "function" == typeof n3.__u;
      i3 && n3.__u(), i3 && null == u3 || (n3.__u = n3(u3));
    } else n3.current = u3;
  } catch (n4) {
    l.__e(n4, t4);
  }
}
function K(n3, u3, t4) {
  var i3, r3;
  if (l.unmount && l.unmount(n3), (i3 = n3.ref) && (i3.current && i3.current != n3.__e || J(i3, null, u3)), null != (i3 = n3.__c)) {
    if (i3.componentWillUnmount) try {
      i3.componentWillUnmount();
    } catch (n4) {
      l.__e(n4, u3);
    }
    i3.base = i3.__P = i3.__n = null;
  }
  if (i3 = n3.__k) for (r3 = 0; r3 < i3.length; r3++) i3[r3] && K(i3[r3], u3, t4 || "function" != typeof n3.type);
  t4 || b(n3.__e), n3.__c = n3.__ = n3.__e = void 0;
}
function Q(n3, l3, u3) {
  return this.constructor(n3, u3);
}
function R(u3, t4, i3) {
  var r3, o3, e3, f3;
  t4 == document && (t4 = document.documentElement), l.__ && l.__(u3, t4), o3 = (r3 = "function" == typeof i3) ? null : i3 && i3.__k || t4.__k, e3 = [], f3 = [], q(t4, u3 = (!r3 && i3 || t4).__k = k(S, null, [u3]), o3 || d, d, t4.namespaceURI, !r3 && i3 ? [i3] : o3 ? null : t4.firstChild ? n.call(t4.childNodes) : null, e3, !r3 && i3 ? i3 : o3 ? o3.__e : t4.firstChild, r3, f3), D(e3, u3, f3), u3.props.children = null;
}
n = w.slice, l = { __e: function(n3, l3, u3, t4) {
  for (var i3, r3, o3; l3 = l3.__; ) if ((i3 = l3.__c) && !i3.__) try {
    if ((r3 = i3.constructor) && null != r3.getDerivedStateFromError && (i3.setState(r3.getDerivedStateFromError(n3)), o3 = i3.__d), null != i3.componentDidCatch && (i3.componentDidCatch(n3, t4 || {}), o3 = i3.__d), o3) return i3.__E = i3;
  } catch (l4) {
    n3 = l4;
  }
  throw n3;
} }, u = 0, t = function(n3) {
  return null != n3 && void 0 === n3.constructor;
}, C.prototype.setState = function(n3, l3) {
  var u3;
  u3 = null != this.__s && this.__s != this.state ? this.__s : this.__s = m({}, this.state), "function" == typeof n3 && (n3 = n3(m({}, u3), this.props)), n3 && m(u3, n3), null != n3 && this.__v && (l3 && this._sb.push(l3), A(this));
}, C.prototype.forceUpdate = function(n3) {
  this.__v && (this.__e = true, n3 && this.__h.push(n3), A(this));
}, C.prototype.render = S, i = [], o = "function" == typeof Promise ? Promise.prototype.then.bind(Promise.resolve()) : setTimeout, e = function(n3, l3) {
  return n3.__v.__b - l3.__v.__b;
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
function s2(n3, t4) {
  c2.__h && c2.__h(r2, n3, o2 || t4), o2 = 0;
  var u3 = r2.__H || (r2.__H = { __: [], __h: [] });
  return n3 >= u3.__.length && u3.__.push({}), u3.__[n3];
}
function d2(n3) {
  return o2 = 1, y2(D2, n3);
}
function y2(n3, u3, i3) {
  var o3 = s2(t2++, 2);
  if (o3.t = n3, !o3.__c && (o3.__ = [i3 ? i3(u3) : D2(void 0, u3), function(n4) {
    var t4 = o3.__N ? o3.__N[0] : o3.__[0], r3 = o3.t(t4, n4);
    t4 !== r3 && (o3.__N = [r3, o3.__[1]], o3.__c.setState({}));
  }], o3.__c = r2, !r2.__f)) {
    var f3 = function(n4, t4, r3) {
      if (!o3.__c.__H) return true;
      var u4 = false, i4 = o3.__c.props !== n4;
      if (o3.__c.__H.__.some(function(n5) {
        if (n5.__N) {
          u4 = true;
          var t5 = n5.__[0];
          n5.__ = n5.__N, n5.__N = void 0, t5 !== n5.__[0] && (i4 = true);
        }
      }), c3) {
        var f4 = c3.call(this, n4, t4, r3);
        return u4 ? f4 || i4 : f4;
      }
      return !u4 || i4;
    };
    r2.__f = true;
    var c3 = r2.shouldComponentUpdate, e3 = r2.componentWillUpdate;
    r2.componentWillUpdate = function(n4, t4, r3) {
      if (this.__e) {
        var u4 = c3;
        c3 = void 0, f3(n4, t4, r3), c3 = u4;
      }
      e3 && e3.call(this, n4, t4, r3);
    }, r2.shouldComponentUpdate = f3;
  }
  return o3.__N || o3.__;
}
function h2(n3, u3) {
  var i3 = s2(t2++, 3);
  !c2.__s && C2(i3.__H, u3) && (i3.__ = n3, i3.u = u3, r2.__H.__h.push(i3));
}
function _2(n3, u3) {
  var i3 = s2(t2++, 4);
  !c2.__s && C2(i3.__H, u3) && (i3.__ = n3, i3.u = u3, r2.__h.push(i3));
}
function A2(n3) {
  return o2 = 5, T2(function() {
    return { current: n3 };
  }, []);
}
function T2(n3, r3) {
  var u3 = s2(t2++, 7);
  return C2(u3.__H, r3) && (u3.__ = n3(), u3.__H = r3, u3.__h = n3), u3.__;
}
function q2(n3, t4) {
  return o2 = 8, T2(function() {
    return n3;
  }, t4);
}
function j2() {
  for (var n3; n3 = f2.shift(); ) {
    var t4 = n3.__H;
    if (n3.__P && t4) try {
      t4.__h.some(z2), t4.__h.some(B2), t4.__h = [];
    } catch (r3) {
      t4.__h = [], c2.__e(r3, n3.__v);
    }
  }
}
c2.__b = function(n3) {
  r2 = null, e2 && e2(n3);
}, c2.__ = function(n3, t4) {
  n3 && t4.__k && t4.__k.__m && (n3.__m = t4.__k.__m), p2 && p2(n3, t4);
}, c2.__r = function(n3) {
  a2 && a2(n3), t2 = 0;
  var i3 = (r2 = n3.__c).__H;
  i3 && (u2 === r2 ? (i3.__h = [], r2.__h = [], i3.__.some(function(n4) {
    n4.__N && (n4.__ = n4.__N), n4.u = n4.__N = void 0;
  })) : (i3.__h.some(z2), i3.__h.some(B2), i3.__h = [], t2 = 0)), u2 = r2;
}, c2.diffed = function(n3) {
  v2 && v2(n3);
  var t4 = n3.__c;
  t4 && t4.__H && (t4.__H.__h.length && (1 !== f2.push(t4) && i2 === c2.requestAnimationFrame || ((i2 = c2.requestAnimationFrame) || w2)(j2)), t4.__H.__.some(function(n4) {
    n4.u && (n4.__H = n4.u, n4.u = void 0);
  })), u2 = r2 = null;
}, c2.__c = function(n3, t4) {
  t4.some(function(n4) {
    try {
      n4.__h.some(z2), n4.__h = n4.__h.filter(function(n5) {
        return !n5.__ || B2(n5);
      });
    } catch (r3) {
      t4.some(function(n5) {
        n5.__h && (n5.__h = []);
      }), t4 = [], c2.__e(r3, n4.__v);
    }
  }), l2 && l2(n3, t4);
}, c2.unmount = function(n3) {
  m2 && m2(n3);
  var t4, r3 = n3.__c;
  r3 && r3.__H && (r3.__H.__.some(function(n4) {
    try {
      z2(n4);
    } catch (n5) {
      t4 = n5;
    }
  }), r3.__H = void 0, t4 && c2.__e(t4, r3.__v));
};
var k2 = "function" == typeof requestAnimationFrame;
function w2(n3) {
  var t4, r3 = function() {
    clearTimeout(u3), k2 && cancelAnimationFrame(t4), setTimeout(n3);
  }, u3 = setTimeout(r3, 35);
  k2 && (t4 = requestAnimationFrame(r3));
}
function z2(n3) {
  var t4 = r2, u3 = n3.__c;
  "function" == typeof u3 && (n3.__c = void 0, u3()), r2 = t4;
}
function B2(n3) {
  var t4 = r2;
  n3.__c = n3.__(), r2 = t4;
}
function C2(n3, t4) {
  return !n3 || n3.length !== t4.length || t4.some(function(t5, r3) {
    return t5 !== n3[r3];
  });
}
function D2(n3, t4) {
  return "function" == typeof t4 ? t4(n3) : t4;
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
  return r3 || (r3 = /* @__PURE__ */ new Map(), t3.set(this, r3)), (r3 = n2(this, r3.get(s3) || (r3.set(s3, r3 = (function(n3) {
    for (var t4, s4, r4 = 1, e3 = "", u3 = "", h3 = [0], p3 = function(n4) {
      1 === r4 && (n4 || (e3 = e3.replace(/^\s*\n\s*|\s*\n\s*$/g, ""))) ? h3.push(0, n4, e3) : 3 === r4 && (n4 || e3) ? (h3.push(3, n4, e3), r4 = 2) : 2 === r4 && "..." === e3 && n4 ? h3.push(4, n4, 0) : 2 === r4 && e3 && !n4 ? h3.push(5, 0, true, e3) : r4 >= 5 && ((e3 || !n4 && 5 === r4) && (h3.push(r4, 0, e3, s4), r4 = 6), n4 && (h3.push(r4, n4, 0, s4), r4 = 6)), e3 = "";
    }, a3 = 0; a3 < n3.length; a3++) {
      a3 && (1 === r4 && p3(), p3(a3));
      for (var l3 = 0; l3 < n3[a3].length; l3++) t4 = n3[a3][l3], 1 === r4 ? "<" === t4 ? (p3(), h3 = [h3], r4 = 3) : e3 += t4 : 4 === r4 ? "--" === e3 && ">" === t4 ? (r4 = 1, e3 = "") : e3 = t4 + e3[0] : u3 ? t4 === u3 ? u3 = "" : e3 += t4 : '"' === t4 || "'" === t4 ? u3 = t4 : ">" === t4 ? (p3(), r4 = 1) : r4 && ("=" === t4 ? (r4 = 5, s4 = e3, e3 = "") : "/" === t4 && (r4 < 5 || ">" === n3[a3][l3 + 1]) ? (p3(), 3 === r4 && (h3 = h3[0]), r4 = h3, (h3 = h3[0]).push(2, 0, r4), r4 = 0) : " " === t4 || "	" === t4 || "\n" === t4 || "\r" === t4 ? (p3(), r4 = 2) : e3 += t4), 3 === r4 && "!--" === e3 && (r4 = 4, h3 = h3[0]);
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
  const n3 = secondary.reduce((k3, g2) => k3 + g2.cards.length, 0);
  const group = (g2) => html`<${Group} key=${g2.group} g=${g2} predict=${predict} predictions=${predictions} send=${send} />`;
  return html`<section class="rw-cards" data-testid="cards">
    ${primary.map(group)}
    ${secondary.length ? html`<details class="rw-more"><summary>RAGChecker metrics on the same state (${n3})</summary>${secondary.map(group)}</details>` : null}
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
                class="rw-picker-query">${r3.query}</span>${" "}<span class="rw-picker-metrics">${Object.entries(r3.metrics).map(([n3, v3]) => `${n3} ${number(v3)}`).join(" · ")}</span>
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
    const step = (n3) => e3.key === "ArrowDown" ? n3.nextElementSibling : n3.previousElementSibling;
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
var minWidth = (heads) => heads.reduce((n3, t4) => n3 + (WIDTHS[t4] || TEXT_WIDTH), 0);
function Table({ heads, groupRow, cls, n: n3, children, label }) {
  const tall = n3 > 12;
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
  const n3 = c3.supported_by.length;
  const k3 = c3.contradicted_by.length;
  if (!n3 && !k3) return "none";
  return html`<span class="rw-below">${n3 ? `${n3} passage${n3 === 1 ? "" : "s"}` : "none"}${k3 ? html`; <span class="rw-contradicts">⊗ ${k3} contradict${k3 === 1 ? "s" : ""}</span>` : null} <span class="rw-hint">(listed below ↓)</span></span>`;
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
    const n3 = item.supported_by.length;
    const k3 = item.contradicted_by.length;
    return ` (${n3} entail${n3 === 1 ? "s" : ""} it, ${k3} contradict${k3 === 1 ? "s" : ""} it)`;
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
  const { n: n3, labels } = view.repeats;
  const claims = { response: view.claims, ground_truth: view.gt_claims };
  if (!labels.length) return html`<p class="rw-note" data-testid="repeated-labels">The judge's ${n3} repeats agree on every label of this sample.</p>`;
  return html`<details class="rw-note" open data-testid="repeated-labels">
    <summary>${labels.length} label${labels.length === 1 ? "" : "s"} the judge gave differently across its ${n3} repeats</summary>
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

// src/widget.js
function render({ model, el }) {
  let view = viewOf(model, "_view");
  const trait = () => model.get("selected") ?? (view && view.selected) ?? "";
  let drawn = { view: null, selected: null };
  const shown = (selected = trait()) => {
    drawn = { view, selected };
    return withSelection(view, selected);
  };
  let sv = null;
  const ranked = (ids) => {
    const all = view && view.controls && view.controls.kind === "sample" ? view.controls.reset.retrieved : null;
    const set = new Set(ids);
    return all && ids.every((d3) => all.includes(d3)) ? all.filter((d3) => set.has(d3)) : ids;
  };
  const send = (patch) => {
    if ("selected" in patch) sv.update(shown(patch.selected));
    if ("retrieved" in patch) patch = { ...patch, retrieved: ranked(patch.retrieved) };
    for (const [name, value] of Object.entries(patch)) model.set(name, value);
    model.save_changes();
  };
  el.classList.add("rw-widget");
  const unkeep = keepKeys(el, { focusable: true });
  const { ask, stop } = requester(model);
  const search = (text) => ask({ type: "search", text }).catch((err) => ({ error: `search failed: ${err.message}` }));
  const review = (action) => model.send({ type: "review", ...action });
  const trace = (target) => ask({ type: "trace", ...target }).catch((err) => ({ trace: null, reason: `the trace request failed: ${err.message}` }));
  const queue = (step) => model.send({ type: "queue", step });
  const noted = !!(view && view.notes);
  const boxEl = noted ? el.appendChild(document.createElement("div")) : null;
  let opened = null;
  const note = () => boxEl && R(html`<${NoteBox} notes=${view.notes} claims=${view.claims}
    request=${(name, msg) => ask({ type: name, ...msg })} opened=${opened} />`, boxEl);
  const keys = noted ? (e3) => e3.key === NOTE_KEY && focusNoteBox(e3.target) && (e3.preventDefault(), true) : null;
  const onKey = (e3) => !forHost(e3) && !e3.target.closest("input, select, textarea") && keys(e3);
  if (noted) el.addEventListener("keydown", onKey);
  sv = mountSampleView(
    noted ? el.appendChild(document.createElement("div")) : el,
    {
      view: shown(),
      send,
      search,
      review,
      trace,
      queue,
      keys,
      note: noted ? (claim) => {
        opened = { claim, seq: Date.now() };
        note();
      } : null
    }
  );
  note();
  const redraw = () => {
    const next = viewOf(model, "_view");
    if (next === view) return;
    view = next;
    sv.update(shown());
    note();
  };
  const reselect = () => {
    if (drawn.view !== view || drawn.selected !== trait()) sv.update(shown());
  };
  model.on("change:_view", redraw);
  model.on("change:_view_base", redraw);
  model.on("change:selected", reselect);
  return () => {
    model.off("change:_view", redraw);
    model.off("change:_view_base", redraw);
    model.off("change:selected", reselect);
    sv.destroy();
    if (boxEl) {
      R(null, boxEl);
      el.removeEventListener("keydown", onKey);
    }
    stop();
    unkeep();
  };
}
var widget_default = { render };

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

// live_widget.js
var live_widget_default = withLive(widget_default);
export {
  live_widget_default as default
};
