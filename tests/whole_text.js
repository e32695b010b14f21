() => {
  // Text a reader must see whole: none cut off by its box (an ellipsis, a clipped cell) and no
  // word broken across lines (a name stacked a letter per line). Addresses (with a /) may break.
  const name = (e) => {
    let s = e.tagName.toLowerCase();
    if (e.id) s += '#' + e.id;
    if (typeof e.className === 'string' && e.className.trim())
      s += '.' + e.className.trim().split(/\s+/).join('.');
    const text = (e.innerText || '').trim().replace(/\s+/g, ' ');
    return text ? `${s} "${text.slice(0, 30)}"` : s;
  };
  const shown = (e) => {
    if (!e.getClientRects().length) return false;
    if (e.closest('details:not([open])') && !e.closest('summary')) return false;
    const st = getComputedStyle(e);
    return st.visibility !== 'hidden' && !(st.clip && st.clip !== 'auto' && st.position === 'absolute');
  };
  const problems = [];
  const range = document.createRange();
  for (const e of document.body.querySelectorAll('*')) {
    if (e.closest('svg, script, style, option, select') || !shown(e)) continue;
    const texts = [...e.childNodes].filter(n => n.nodeType === 3 && n.textContent.trim());
    if (!texts.length) continue;
    const st = getComputedStyle(e);
    if ((/(hidden|clip)/.test(st.overflowX) || st.textOverflow === 'ellipsis') &&
        e.scrollWidth > e.clientWidth + 1) {
      problems.push(`${name(e)}: its text is cut (${e.scrollWidth} px of text in ${e.clientWidth} px)`);
      continue;
    }
    outer: for (const n of texts) {
      const re = /\S+/g;
      let m;
      while ((m = re.exec(n.textContent))) {
        if (m[0].length < 2 || /[/@]/.test(m[0])) continue;
        range.setStart(n, m.index);
        range.setEnd(n, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
        if (tops.size > 1) {
          problems.push(`${name(e)}: the word "${m[0]}" is broken across ${tops.size} lines`);
          break outer;
        }
      }
    }
  }
  return problems;
}
