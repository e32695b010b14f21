({minPx}) => {
  // Every control a finger taps, as laid out now: each must be at least minPx by minPx CSS px.
  const name = (e) => {
    let s = e.tagName.toLowerCase();
    if (e.id) s += '#' + e.id;
    if (typeof e.className === 'string' && e.className.trim())
      s += '.' + e.className.trim().split(/\s+/).join('.');
    const text = (e.innerText || e.value || e.getAttribute('aria-label') || '').trim().replace(/\s+/g, ' ');
    return text ? `${s} "${text.slice(0, 30)}"` : s;
  };
  const shown = (e) => {
    if (!e.getClientRects().length) return false;
    if (e.closest('details:not([open])') && !e.closest('summary')) return false;
    for (let a = e; a; a = a.parentElement) {
      const st = getComputedStyle(a);
      if (st.visibility === 'hidden' || parseFloat(st.opacity) === 0) return false;
    }
    return true;
  };
  // a link inside a sentence (WCAG 2.5.5's "inline" exception): laid out inline, with words of
  // its block's own around it
  const inSentence = (e) => {
    if (e.tagName !== 'A' || getComputedStyle(e).display !== 'inline') return false;
    const block = e.parentElement;
    return [...block.childNodes].some(n => n !== e && n.nodeType === 3 && n.textContent.trim());
  };
  // a checkbox or radio is tapped through its label: the label is the target
  const labelOf = (e) => e.closest('label') || (e.id && document.querySelector(`label[for="${CSS.escape(e.id)}"]`));
  const controls = 'a[href], button, input:not([type=hidden]), select, textarea, summary, ' +
    '[role=button], [role=tab], [role=link], [tabindex]:not([tabindex="-1"])';
  const targets = new Set();
  for (const e of document.querySelectorAll(controls)) {
    if (e.disabled || e.closest('svg')) continue;
    if (e.matches('input[type=checkbox], input[type=radio]')) {
      const l = labelOf(e);
      targets.add(l || e);
    } else targets.add(e);
  }
  // anything else the page made clickable (a pointer cursor its parent does not have)
  for (const e of document.body.querySelectorAll('*')) {
    if (e.closest('svg') || targets.has(e)) continue;
    if (getComputedStyle(e).cursor === 'pointer' && e.parentElement &&
        getComputedStyle(e.parentElement).cursor !== 'pointer' && !e.closest(controls)) targets.add(e);
  }
  const problems = [];
  for (const e of targets) {
    if (!shown(e) || inSentence(e)) continue;
    const r = e.getBoundingClientRect();
    if (r.width < minPx - 0.5 || r.height < minPx - 0.5)
      problems.push(`${name(e)} is ${Math.round(r.width)}x${Math.round(r.height)} px, under ${minPx}x${minPx}`);
  }
  return problems;
}
