// Renders what an import did: an ImportReport (the answer of POST /admin/imports) or an ImportRecord
// (one entry of the import log), with their counts and a filterable table of issues.

import { h, clear, fmtInt, fmtBytes, fmtNumber, fmtTime, kvList } from './dom.js';

const COUNT_KEYS = ['read', 'inserted', 'updated', 'unchanged', 'removed', 'rejected', 'warned'];
const ISSUE_LIMIT = 1000;

export function countTiles(counts = {}) {
  return h('div', { class: 'tiles' }, COUNT_KEYS.filter((k) => k in counts || k !== 'removed').map((k) =>
    h('div', { class: `tile tile-${k}`, dataset: { count: k, value: counts[k] ?? '' } },
      h('span', { class: 'tile-value', text: fmtInt(counts[k]) }), h('span', { class: 'tile-label', text: k }))));
}

/** A table of issues with severity, code and text filters. */
export function issueTable(issues, { truncated = false, showFile = false } = {}) {
  const wrap = h('div', { class: 'issues' });
  if (!issues.length) {
    wrap.append(h('p', { class: 'muted', text: 'No warnings and no rejected rows.' }));
    return wrap;
  }
  const codes = new Map();
  for (const i of issues) codes.set(i.code, (codes.get(i.code) || 0) + 1);

  const severity = h('select', {}, h('option', { value: '', text: 'all' }), h('option', { value: 'rejected', text: 'rejected' }),
    h('option', { value: 'warning', text: 'warning' }));
  const code = h('select', {}, h('option', { value: '', text: 'all' }),
    [...codes].sort((a, b) => b[1] - a[1]).map(([c, n]) => h('option', { value: c, text: `${c} (${fmtInt(n)})` })));
  const text = h('input', { type: 'search', placeholder: 'message, id or line', autocomplete: 'off' });
  const shown = h('span', { class: 'muted', 'aria-live': 'polite' });
  const tbody = h('tbody');
  const table = h('table', { class: 'data-table issues-table' },
    h('thead', {}, h('tr', {}, [showFile ? 'File' : null, 'Line', 'Severity', 'Code', 'Message', 'External id']
      .filter(Boolean).map((t) => h('th', { scope: 'col', class: t === 'Line' ? 'num' : '', text: t })))),
    tbody);

  function render() {
    const q = text.value.trim().toLowerCase();
    const rows = issues.filter((i) => (!severity.value || i.severity === severity.value) && (!code.value || i.code === code.value)
      && (!q || [i.message, i.external_id, String(i.line), i.code].some((v) => typeof v === 'string' && v.toLowerCase().includes(q))));
    clear(tbody).append(...rows.slice(0, ISSUE_LIMIT).map((i) => h('tr', { class: `severity-${i.severity}` },
      showFile ? h('td', { text: i.file || '' }) : null,
      h('td', { class: 'num', text: fmtInt(i.line) }),
      h('td', {}, h('span', { class: `badge ${i.severity === 'rejected' ? 'bad' : 'warn'}`, text: i.severity })),
      h('td', {}, h('code', { text: i.code })),
      h('td', { text: i.message }),
      h('td', { text: i.external_id || '' }))));
    shown.textContent = `${fmtInt(rows.length)} of ${fmtInt(issues.length)} issues`
      + (rows.length > ISSUE_LIMIT ? `, the first ${fmtInt(ISSUE_LIMIT)} shown` : '')
      + (truncated ? '; the server kept only the first issues of this file' : '');
  }

  for (const el of [severity, code]) el.addEventListener('change', render);
  text.addEventListener('input', render);
  wrap.append(h('div', { class: 'filters' },
    h('label', {}, 'Severity ', severity), h('label', {}, 'Code ', code), h('label', {}, 'Search ', text), shown),
  h('div', { class: 'table-wrap' }, table));
  render();
  return wrap;
}

/** The result of POST /admin/imports (ImportReport). */
export function reportView(report) {
  const files = Array.isArray(report.files) ? report.files : [];
  const state = report.committed ? ['ok', 'Committed'] : report.dry_run ? ['warn', 'Dry run: validated, then rolled back'] : ['bad', 'Not committed'];
  const issues = files.flatMap((f) => (f.issues || []).map((i) => ({ ...i, file: f.file_name })));
  const byReason = (obj) => (obj && Object.keys(obj).length
    ? Object.entries(obj).map(([k, v]) => `${k} ${fmtInt(v)}`).join(', ') : 'none');
  return h('div', { class: 'report', dataset: { committed: String(Boolean(report.committed)) } },
    h('h2', {}, 'Import result ', h('span', { class: `badge ${state[0]}`, text: state[1] })),
    countTiles(report.totals),
    kvList([
      ['Time', `${fmtNumber(report.seconds, 2)} s`],
      ['Rows per second', fmtInt(report.rows_per_second)],
      ['Networks created', (report.networks_created || []).join(', ') || 'none'],
      ['Networks replaced', (report.replaced_networks || []).join(', ') || 'none'],
    ]),
    files.map((f) => h('details', { class: 'file-report' },
      h('summary', { text: `${f.file_name}: ${fmtBytes(f.file_size)}, ${f.encoding}${f.mixed_encoding ? ' (mixed)' : ''}, delimiter “${f.delimiter}”` }),
      kvList([
        ['Import id', f.import_id ?? '—'],
        ['SHA-256', h('code', { text: f.sha256 || '—' })],
        ['Columns', f.columns ? Object.entries(f.columns).map(([k, v]) => `${k} ← ${v}`).join(', ') : '—'],
        ['Rejected by reason', byReason(f.rejected_by_reason)],
        ['Warnings by reason', byReason(f.warnings_by_reason)],
        ['Rows by network', f.rows_by_network ? Object.entries(f.rows_by_network).sort((a, b) => b[1] - a[1]).slice(0, 20)
          .map(([k, v]) => `${k} ${fmtInt(v)}`).join(', ') : '—'],
      ]))),
    h('h3', { text: 'Issues' }),
    issueTable(issues, { truncated: files.some((f) => f.issues_truncated), showFile: files.length > 1 }));
}

/** One entry of the import log (ImportRecord). */
export function recordView(record) {
  const options = record.options && Object.keys(record.options).length
    ? Object.entries(record.options).map(([k, v]) => `${k}=${v}`).join(', ') : 'none';
  return h('div', { class: 'report', dataset: { importId: record.id ?? '' } },
    h('h2', { text: `Import ${record.id ?? ''}: ${record.file_name}` }),
    countTiles(record.counts),
    kvList([
      ['Status', record.status],
      ['Started', fmtTime(record.started_at)],
      ['Finished', fmtTime(record.finished_at)],
      ['File size', fmtBytes(record.file_size)],
      ['Encoding', record.encoding ?? '—'],
      ['SHA-256', h('code', { text: record.sha256 || '—' })],
      ['Options', options],
      ...(record.error_message ? [['Error', record.error_message]] : []),
    ]),
    h('h3', { text: 'Issues' }),
    issueTable(record.issues || [], { truncated: record.next_cursor != null }));
}
