// Start-up and routing: #map[/LAT/LON/ZOOM], #networks, #imports; the admin key button.

import { setUpTokenDialog, hasToken, currentRole, onTokenChange } from './token.js';
import { loadNetworks } from './api.js';
import { createMapView } from './map.js';
import { createNetworksView } from './networks.js';
import { createImportsView } from './imports.js';

const TITLES = { map: 'Map', networks: 'Networks', imports: 'Imports' };

const openTokenDialog = setUpTokenDialog();
const tokenButton = document.getElementById('token-button');

const refreshNetworks = () => { loadNetworks({ force: true }).catch(() => {}); views.map.reloadNetworks(); };
const views = {
  map: createMapView(),
  networks: createNetworksView({ onChanged: () => views.map.reloadNetworks() }),
  imports: createImportsView({ openTokenDialog, onImported: refreshNetworks }),
};

let current = null;

function route() {
  const [name, ...params] = location.hash.replace(/^#\/?/, '').split('/');
  if (!views[name]) {
    history.replaceState(null, '', '#map');
    route();
    return;
  }
  if (current && current !== name) views[current].hide();
  for (const id of Object.keys(views)) document.getElementById(`view-${id}`).hidden = id !== name;
  for (const tab of document.querySelectorAll('.tabs a')) {
    if (tab.dataset.view === name) tab.setAttribute('aria-current', 'page');
    else tab.removeAttribute('aria-current');
  }
  document.title = `${TITLES[name]} · OnCue console`;
  current = name;
  views[name].show(params.map(decodeURIComponent));
}

function showTokenState(set) {
  const role = currentRole();
  tokenButton.textContent = set ? `Admin key ✓${role ? ` (${role})` : ''}` : 'Admin key';
  tokenButton.classList.toggle('set', set);
  tokenButton.dataset.role = role;
  tokenButton.setAttribute('aria-label', set ? `Admin key (set${role ? `, role ${role}` : ''})` : 'Admin key (not set)');
}

tokenButton.addEventListener('click', openTokenDialog);
onTokenChange(showTokenState);
showTokenState(hasToken());
window.addEventListener('hashchange', route);
route();
