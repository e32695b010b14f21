({fit, firstScreen, screen}) => {
  // the screen's size as set, not innerWidth: a phone (a mobile viewport) widens its layout
  // viewport to a page wider than the screen and zooms out, so innerWidth grows with the fault
  const [W, H] = screen || [window.innerWidth, window.innerHeight], problems = [];
  const name = (e) => {
    let s = e.tagName.toLowerCase();
    if (e.id) s += '#' + e.id;
    if (typeof e.className === 'string' && e.className.trim())
      s += '.' + e.className.trim().split(/\s+/).join('.');
    const text = (e.innerText || e.getAttribute('aria-label') || '').trim().replace(/\s+/g, ' ');
    return text ? `${s} "${text.slice(0, 40)}"` : s;
  };
  const modal = document.querySelector('dialog[open]:modal');
  const root = modal || document.body;
  const shown = (e) => {
    if (!e.getClientRects().length) return false;
    // laid out but not drawn: the content of a closed <details> (Chromium hides it with
    // content-visibility, which leaves it boxes), or under a content-visibility: hidden element
    if (e.checkVisibility && !e.checkVisibility({ contentVisibilityAuto: true })) return false;
    const st = getComputedStyle(e);
    if (st.visibility === 'hidden' || parseFloat(st.opacity) === 0) return false;
    const r = e.getBoundingClientRect();
    return r.width > 2 && r.height > 2;
  };
  // hidden for everyone but screen readers (clip, 1 px), or inside something that clips to nothing
  const srOnly = (e) => {
    for (let a = e; a && a !== document.body; a = a.parentElement) {
      const st = getComputedStyle(a);
      if (st.clip && st.clip !== 'auto' && st.position === 'absolute') return true;
      if (st.clipPath && st.clipPath !== 'none' && /inset\(50%/.test(st.clipPath)) return true;
    }
    return false;
  };
  const ownText = (e) => [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
  const atom = (e) => ownText(e) || e.matches('img, svg, canvas, input, select, textarea, button');
  // the nearest ancestor that scrolls or clips its overflow: what lies outside it is not lost
  const clipper = (e) => {
    for (let a = e.parentElement; a && a !== document.body && a !== document.documentElement;
         a = a.parentElement) {
      const st = getComputedStyle(a);
      if (/(auto|scroll|hidden|clip)/.test(st.overflowX + st.overflowY)) return a;
    }
    return null;
  };
  const pinned = (e) => {
    for (let a = e; a && a !== document.body; a = a.parentElement) {
      const p = getComputedStyle(a).position;
      if (p === 'fixed' || p === 'sticky') return true;
    }
    return false;
  };
  // inside a closed <details>, only its summary is shown (Chromium keeps the rest laid out)
  const folded = (e) => {
    const d = e.closest('details:not([open])');
    return d !== null && !e.closest('summary') && d.contains(e) && e !== d;
  };
  const els = [...root.querySelectorAll('*')].filter(e => !folded(e) &&
    !e.closest('svg *') && shown(e) && !srOnly(e) && !(modal === null && e.closest('dialog:not([open])')));
  const seen = new Set();
  const add = (p) => { if (!seen.has(p)) { seen.add(p); problems.push(p); } };

  const d = document.documentElement;
  if (d.scrollWidth > W + 1) add(`the page scrolls sideways: ${d.scrollWidth} px wide on ${W} px`);
  if (fit && d.scrollHeight > H + 1) add(`the page scrolls: ${d.scrollHeight} px tall on ${H} px`);

  for (const e of els) {
    if (clipper(e)) continue;  // judged against its scroller, below
    const r = e.getBoundingClientRect(), top = r.top + window.scrollY;
    if (r.left < -1 || r.right > W + 1 || (fit && (top < -1 || top + r.height > H + 1)))
      add(`${name(e)} is off the screen: ${Math.round(r.left)},${Math.round(top)} to ` +
          `${Math.round(r.right)},${Math.round(top + r.height)} on ${W}x${H}`);
  }

  // text that runs out of its own box, where nothing scrolls or clips it
  for (const e of els) {
    if (!ownText(e)) continue;
    const st = getComputedStyle(e);
    if (/(auto|scroll|hidden|clip)/.test(st.overflowX + st.overflowY) || st.textOverflow === 'ellipsis') continue;
    const box = e.getBoundingClientRect();
    // a glyph's line box is taller than a tight line-height: only clearly spilt text counts
    const dy = Math.max(2, 0.35 * parseFloat(st.fontSize));
    const range = document.createRange();
    for (const n of e.childNodes) {
      if (n.nodeType !== 3 || !n.textContent.trim()) continue;
      range.selectNodeContents(n);
      const t = range.getBoundingClientRect();
      if (t.width && (t.left < box.left - 2 || t.right > box.right + 2 ||
                      t.top < box.top - dy || t.bottom > box.bottom + dy)) {
        add(`${name(e)}: its text runs out of its box (${Math.round(t.width)}x` +
            `${Math.round(t.height)} in ${Math.round(box.width)}x${Math.round(box.height)})`);
        break;
      }
    }
  }

  // covered: probe each atom's points, one screen at a time
  const probe = (firstScreenOnly) => {
    const atoms = els.filter(atom);
    for (const e of atoms) {
      const r = e.getBoundingClientRect();
      if (r.top < 0 || r.bottom > H || r.left < 0 || r.right > W) continue;  // another screen's
      const c = clipper(e);
      if (c) {
        const cr = c.getBoundingClientRect();
        if (r.top < cr.top - 1 || r.bottom > cr.bottom + 1 || r.left < cr.left - 1 || r.right > cr.right + 1)
          continue;  // scrolled out of its scroller's view: there when scrolled to
      }
      // each box of the element: an inline one that wraps has one per line, and the box
      // around them all takes in what lies beside it on its first and last lines
      const pts = [];
      for (const b of e.getClientRects()) {
        if (b.width < 2 || b.height < 2) continue;
        const ix = Math.min(4, b.width / 4), iy = Math.min(4, b.height / 4);
        pts.push([(b.left + b.right) / 2, (b.top + b.bottom) / 2], [b.left + ix, b.top + iy],
                 [b.right - ix, b.top + iy], [b.left + ix, b.bottom - iy],
                 [b.right - ix, b.bottom - iy]);
      }
      for (const [x, y] of pts) {
        const top = document.elementFromPoint(x, y);
        if (!top || top === e || e.contains(top) || top.contains(e)) continue;
        // a tall glyph's text is hit a few pixels outside its element's box (its font's ascent
        // over a line-height of 1): only a box drawn over the point covers it
        const tb = top.getBoundingClientRect();
        if (x < tb.left - 1 || x > tb.right + 1 || y < tb.top - 1 || y > tb.bottom + 1) continue;
        if (!firstScreenOnly && pinned(top) && !pinned(e)) continue;  // content under a pinned bar
        add(`${name(e)} is covered by ${name(top)} at ${Math.round(x)},${Math.round(y + window.scrollY)}`);
        break;
      }
    }
  };
  const scroller = document.scrollingElement;
  const start = scroller.scrollTop;
  const height = fit ? H : d.scrollHeight;
  for (let y = 0; y < height; y += Math.max(1, H - 80)) {
    window.scrollTo(0, y);
    probe(y === 0);
    if (y + H >= height) break;
  }
  window.scrollTo(0, 0);
  for (const sel of firstScreen) {
    const found = [...document.querySelectorAll(sel)].filter(shown);
    if (!found.length) { add(`${sel}: not on the page`); continue; }
    for (const e of found) {
      const r = e.getBoundingClientRect();
      if (r.top < -1 || r.bottom > H + 1 || r.left < -1 || r.right > W + 1)
        add(`${name(e)} (${sel}) is not on the first screen: ${Math.round(r.left)},` +
            `${Math.round(r.top)} to ${Math.round(r.right)},${Math.round(r.bottom)} on ${W}x${H}`);
    }
  }
  window.scrollTo(0, start);
  return problems;
}
