// The imports view (admin): upload a CSV to POST /admin/imports with upload progress, follow the
// server-side job (GET /admin/jobs/{id}) when the server answers 202, show the result, and browse the
// import log (GET /admin/imports, GET /admin/imports/{id}).

import { h, clear, showStatus, fmtInt, fmtBytes, fmtTime } from './dom.js';
import { getJSON, uploadCSV, loadNetworks } from './api.js';
import { canDo, hasToken, onTokenChange } from './token.js';
import { reportView, recordView } from './import-report.js';

const POLL_MS = 500;

export function createImportsView({ openTokenDialog, onImported }) {
  const locked = document.getElementById('imports-locked');
  const unlocked = document.getElementById('imports-unlocked');
  const form = document.getElementById('import-form');
  const readOnly = document.getElementById('imports-read-only');
  const file = document.getElementById('import-file');
  const submit = document.getElementById('import-submit');
  const fileName = document.getElementById('import-file-name');
  const networkIds = document.getElementById('import-network-ids');
  const progress = document.getElementById('import-progress');
  const uploadBar = document.getElementById('upload-progress');
  const uploadText = document.getElementById('upload-progress-text');
  const serverBar = document.getElementById('server-progress');
  const serverText = document.getElementById('server-progress-text');
  const status = document.getElementById('import-status');
  const result = document.getElementById('import-result');
  const log = document.getElementById('import-log');
  const logStatus = document.getElementById('import-log-status');
  const detail = document.getElementById('import-detail');
  const value = (id) => document.getElementById(id).value.trim();
  const checked = (id) => document.getElementById(id).checked;

  let active = false;
  let busy = false;

  /* ---------- the form ---------- */

  function mode() {
    return form.querySelector('input[name="network-mode"]:checked').value;
  }

  function updateMode() {
    for (const label of form.querySelectorAll('[data-mode]')) label.hidden = label.dataset.mode !== mode();
  }
  for (const radio of form.querySelectorAll('input[name="network-mode"]')) radio.addEventListener('change', updateMode);

  file.addEventListener('change', () => {
    if (file.files[0]) fileName.placeholder = file.files[0].name;
  });

  /** The query parameters of POST /admin/imports (the names of ImportQuery on the server). */
  function query(chosen) {
    const q = {
      category: value('import-category'),
      file_name: value('import-file-name') || chosen.name.slice(0, 200),
      encoding: value('import-encoding'),
      delimiter: value('import-delimiter'),
    };
    if (mode() === 'network') q.network = value('import-network');
    if (mode() === 'column') {
      q.network_column = value('import-network-column');
      q.network_name_column = value('import-network-name-column');
    }
    const geocode = value('import-geocode'), geocoder = value('import-geocoder');
    if (geocode) q.geocode = geocode;
    if (geocoder) q.geocoder = geocoder;
    for (const [name, id] of [['dry_run', 'import-dry-run'], ['fix_coordinates', 'import-fix-coordinates'],
                              ['replace_network', 'import-replace'], ['only_known_networks', 'import-only-known']]) {
      if (checked(id)) q[name] = 'true';
    }
    return q;
  }

  function validate(chosen) {
    if (!chosen) return 'Choose a CSV file.';
    if (mode() === 'network' && !value('import-network')) return 'Name the network every row belongs to (or choose another option).';
    if (mode() === 'column' && !value('import-network-column')) return 'Name the column that holds each row\'s network.';
    return null;
  }

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (busy) return;
    const chosen = file.files[0];
    const problem = validate(chosen);
    if (problem) { showStatus(status, new Error(problem)); return; }
    busy = true;
    submit.disabled = true;
    result.hidden = true;
    clear(result);
    showStatus(status, null);
    startProgress(chosen);
    try {
      const answer = await uploadCSV('admin/imports', query(chosen), chosen, { onUploadProgress: uploadProgress });
      uploadProgress(chosen.size, chosen.size);
      if (answer.status === 202 && answer.body?.job) {
        await followJob(String(answer.body.job));
      } else {
        serverDone('answered directly');
        showReport(answer.body);
      }
    } catch (error) {
      showStatus(status, error);
      serverBar.value = 0;
      serverText.textContent = 'failed';
      result.dataset.state = 'error';
    } finally {
      busy = false;
      submit.disabled = false;
      loadLog();
    }
  });

  /* ---------- progress ---------- */

  function startProgress(chosen) {
    progress.hidden = false;
    uploadBar.max = Math.max(1, chosen.size);
    uploadBar.value = 0;
    uploadText.textContent = `0 of ${fmtBytes(chosen.size)}`;
    serverBar.removeAttribute('value');          // indeterminate until the server says more
    serverText.textContent = 'waiting for the upload';
    result.dataset.state = 'running';
  }

  function uploadProgress(loaded, total) {
    uploadBar.max = Math.max(1, total);
    uploadBar.value = Math.min(loaded, total);
    uploadText.textContent = `${fmtBytes(loaded)} of ${fmtBytes(total)}`;
  }

  function serverProgress(p) {
    const parts = [];
    if (typeof p?.rows === 'number') parts.push(`${fmtInt(p.rows)} rows`);
    if (typeof p?.bytes === 'number') parts.push(typeof p.total_bytes === 'number' ? `${fmtBytes(p.bytes)} of ${fmtBytes(p.total_bytes)}` : fmtBytes(p.bytes));
    if (p?.stage) parts.push(p.stage);
    if (typeof p?.bytes === 'number' && typeof p?.total_bytes === 'number' && p.total_bytes > 0) {
      serverBar.max = p.total_bytes;
      serverBar.value = Math.min(p.bytes, p.total_bytes);
    } else {
      serverBar.removeAttribute('value');
    }
    serverText.textContent = parts.join(' · ') || 'running';
  }

  function serverDone(text) {
    serverBar.max = 1;
    serverBar.value = 1;
    serverText.textContent = text;
  }

  /** Polls GET /admin/jobs/{id} every 500 ms until the job is no longer running. */
  async function followJob(id) {
    let failures = 0;
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      let job;
      try {
        job = await getJSON(`admin/jobs/${encodeURIComponent(id)}`, { admin: true });
        failures = 0;
      } catch (error) {
        if (error.status || ++failures >= 5) throw error;     // the server said no, or is gone for 2.5 s
        continue;
      }
      serverProgress(job?.progress);
      if (job?.status === 'running') continue;
      if (job?.status === 'committed') serverDone(`${fmtInt(job.progress?.rows ?? job.result?.totals?.read)} rows · done`);
      else serverText.textContent = job?.status || 'finished';
      if (job?.result) showReport(job.result);
      if (job?.error) {
        const error = new Error(job.error.message || 'the import failed');
        error.code = job.error.error;
        showStatus(status, error);
        result.dataset.state = 'error';
      }
      return;
    }
  }

  function showReport(report) {
    clear(result).append(reportView(report || {}));
    result.hidden = false;
    result.dataset.state = 'done';
    if (report?.committed) onImported();
  }

  /* ---------- the import log ---------- */

  async function loadLog() {
    if (!hasToken()) return;
    log.dataset.state = 'loading';
    try {
      const data = await getJSON('admin/imports', { admin: true, query: { limit: 100 } });
      const imports = Array.isArray(data?.imports) ? data.imports : [];
      clear(log.tBodies[0]).append(...imports.map(logRow));
      if (!imports.length) log.tBodies[0].append(h('tr', {}, h('td', { colspan: 11, class: 'muted', text: 'No import yet.' })));
      showStatus(logStatus, null);
      log.dataset.state = 'loaded';
    } catch (error) {
      showStatus(logStatus, error);
      log.dataset.state = 'error';
    }
  }

  function logRow(record) {
    const c = record.counts || {};
    const open = () => showDetail(record.id);
    return h('tr', { dataset: { importId: record.id ?? '' }, onclick: (e) => { if (!e.target.closest('button')) open(); } },
      h('td', {}, record.id == null ? '—' : h('button', { type: 'button', class: 'link', text: `#${record.id}`,
                                                          'aria-label': `Show import ${record.id}`, onclick: open })),
      h('td', { text: fmtTime(record.started_at) }),
      h('td', { text: record.file_name }),
      h('td', {}, h('span', { class: `badge ${record.status === 'committed' ? 'ok' : record.status === 'failed' ? 'bad' : 'warn'}`, text: record.status })),
      ...['read', 'inserted', 'updated', 'unchanged', 'removed', 'rejected', 'warned'].map((k) => h('td', { class: 'num', text: fmtInt(c[k]) })));
  }

  async function showDetail(id) {
    if (id == null) return;
    for (const row of log.tBodies[0].rows) row.classList.toggle('selected', row.dataset.importId === String(id));
    detail.hidden = false;
    clear(detail).append(h('p', { class: 'muted', text: `Loading import ${id}…` }));
    try {
      // The first 1,000 issues; the table says when the import logged more (next_cursor).
      const record = await getJSON(`admin/imports/${encodeURIComponent(id)}?limit=1000`, { admin: true });
      clear(detail).append(recordView(record));
    } catch (error) {
      showStatus(detail, error);
    }
  }

  document.getElementById('import-log-reload').addEventListener('click', loadLog);
  document.getElementById('imports-token-button').addEventListener('click', openTokenDialog);

  /* ---------- token and visibility ---------- */

  function update() {
    const admin = hasToken();
    locked.hidden = admin;
    unlocked.hidden = !admin;
    // A read key sees the log; the upload form needs an import key (or admin).
    form.hidden = !canDo('import');
    readOnly.hidden = !admin || canDo('import');
    if (admin && active) {
      loadLog();
      loadNetworks().then((list) => {
        clear(networkIds).append(...list.slice(0, 5000).map((n) => h('option', { value: n.id, label: n.name })));
      }).catch(() => { /* the datalist is only a convenience */ });
    }
    if (!admin) { clear(log.tBodies[0]); detail.hidden = true; clear(detail); }
  }

  onTokenChange(update);
  updateMode();

  return {
    show() { active = true; update(); },
    hide() { active = false; },
  };
}
