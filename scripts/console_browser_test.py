#!/usr/bin/env python3
"""Drives the OnCue web console (/console/) in headless Chromium and checks it against the server's own answers.

    python3 scripts/console_browser_test.py --network ny0778 --lat 40.7549 --lon -73.9840 --csv FILE \\
        [--url http://127.0.0.1:8080] [--token TOKEN] [--map-shot docs/console-map.png] [--imports-shot docs/console-imports.png]

--url and --token default to $ONCUE_CONSOLE_URL and $ONCUE_ADMIN_TOKEN. Checks, in order:
 1. the map opens at #map/LAT/LON/ZOOM; the card network is picked; a click at the map centre draws the regions;
 2. as many region circles as the server returns for the same request (the test POSTs the request the page sent,
    read from the page), each circle's radius measured from its drawn geometry (getBBox and the screen CTM, turned
    back into metres with this script's own Web Mercator and great-circle maths) within 2 % of radius_meters,
    its centre on the region's coordinates, and a tooltip with the explain rows on hover;
 3. #networks lists the networks of GET /v1/networks;
 4. the admin token goes in through the dialog into sessionStorage only (not localStorage, not the URL);
 5. #imports uploads the CSV (a dry run unless --commit) and the result's read count equals the CSV's data rows;
    the import log loads and one record opens;
 5c. with --read-token (a key of role read), the console learns the role from the server and offers no edit and no
    upload, while the networks and the import log still show;
 5d. with --app-token (the server runs with --client-jwt), the networks fail without the token and load once it is
    given, and it is kept in sessionStorage only;
 6. the page requested nothing outside its origin, and the browser console has no SEVERE entry.
Exit 0 when everything passes, 1 on a failed check, 2 when the environment cannot be set up.

Needs Debian's `chromium` and `chromium-driver` (installed with apt-get when missing and running as root) and
selenium from PyPI, installed into ~/.cache/oncue/selenium-venv (pinned below; this script re-runs itself there).
Chromium is started with its background networking off, so only the server under test is contacted.
"""
import argparse, csv, io, json, math, os, pathlib, re, shutil, subprocess, sys, time, urllib.error, urllib.parse, urllib.request

SELENIUM = "selenium==4.38.0"          # 4.52.0 wanted a certifi newer than the package mirror here has
VENV = pathlib.Path.home() / ".cache" / "oncue" / "selenium-venv"
EARTH = 6371008.8                        # Geo.Sphere.earthRadiusMeters
TOLERANCE = 0.02
# Leaflet rounds a circle's pixel radius and position to whole pixels (L.SVG._updateCircle).
PIXEL_SLACK = 0.6


# ---------------------------------------------------------------- environment

def ensure_environment():
    if not (shutil.which("chromium") and shutil.which("chromedriver")):
        if os.geteuid() != 0:
            sys.exit("console test: chromium and chromedriver are missing; run: apt-get install -y chromium chromium-driver")
        print("console test: installing chromium and chromium-driver with apt-get", flush=True)
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        if subprocess.run(["apt-get", "install", "-y", "chromium", "chromium-driver"], env=env).returncode != 0:
            subprocess.run(["apt-get", "update"], env=env, check=False)
            if subprocess.run(["apt-get", "install", "-y", "chromium", "chromium-driver"], env=env).returncode != 0:
                sys.exit("console test: apt-get could not install chromium and chromium-driver")
    try:
        import selenium  # noqa: F401
        return
    except ImportError:
        pass
    python = VENV / "bin" / "python"
    if pathlib.Path(sys.prefix).resolve() == VENV.resolve():
        sys.exit(f"console test: selenium is missing from {VENV}")
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    if subprocess.run([str(python), "-c", "import selenium"], capture_output=True).returncode != 0:
        print(f"console test: installing {SELENIUM} into {VENV}", flush=True)
        if subprocess.run([str(python), "-m", "pip", "install", "-q", SELENIUM]).returncode != 0:
            sys.exit(f"console test: pip could not install {SELENIUM}")
    os.execv(str(python), [str(python), os.path.abspath(__file__), *sys.argv[1:]])


# ---------------------------------------------------------------- maths (independent of the page's code)

def project(lat, lon):
    lat = max(-85.0511287798066, min(85.0511287798066, lat))
    s = math.sin(math.radians(lat))
    return (lon + 180) / 360, 0.5 - math.log((1 + s) / (1 - s)) / (4 * math.pi)


def unproject(x, y):
    return math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * y)))), x * 360 - 180


def haversine(lat1, lon1, lat2, lon2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    a = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lon2 - lon1) / 2) ** 2
    return 2 * EARTH * math.asin(min(1.0, math.sqrt(a)))


def csv_data_rows(path):
    raw = pathlib.Path(path).read_bytes()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = raw.decode("cp1252", errors="replace")
    header = text.split("\n", 1)[0]
    delimiter = max(",;|\t", key=header.count)
    rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))
    return sum(1 for r in rows[1:] if any(f.strip() for f in r))


# ---------------------------------------------------------------- the test

class Failure(Exception):
    pass


class ConsoleTest:
    def __init__(self, args):
        self.args = args
        self.base = args.url.rstrip("/")
        self.passed = 0
        self.logs = []

    # -- helpers

    def ok(self, what):
        self.passed += 1
        print(f"ok - {what}", flush=True)

    def check(self, condition, message):
        if not condition:
            raise Failure(message)

    def http(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json", "Accept": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return json.loads(r.read())
        except urllib.error.HTTPError as e:
            raise Failure(f"{method} {path}: HTTP {e.code}: {e.read()[:300]!r}")
        except urllib.error.URLError as e:
            raise Failure(f"{method} {path}: the server at {self.base} cannot be reached ({e.reason})")

    def wait(self, condition, what, timeout=20):
        from selenium.common.exceptions import TimeoutException
        from selenium.webdriver.support.ui import WebDriverWait
        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=0.1).until(lambda d: condition(d))
        except TimeoutException:
            raise Failure(f"timed out after {timeout} s waiting for {what}")

    def css(self, selector):
        from selenium.webdriver.common.by import By
        return self.driver.find_elements(By.CSS_SELECTOR, selector)

    def collect_logs(self, phase):
        for entry in self.driver.get_log("browser"):
            self.logs.append((phase, entry))

    def start(self):
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        options = webdriver.ChromeOptions()
        options.binary_location = shutil.which("chromium")
        for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     f"--window-size={self.args.width},{self.args.height}", "--force-device-scale-factor=1",
                     "--hide-scrollbars", "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                     "--disable-background-networking", "--disable-component-update", "--disable-sync",
                     "--disable-default-apps", "--disable-domain-reliability", "--disable-client-side-phishing-detection",
                     "--metrics-recording-only", "--no-pings", "--lang=en-US"):
            options.add_argument(flag)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        os.environ.setdefault("SE_OFFLINE", "true")          # Selenium Manager: never download anything
        self.driver = webdriver.Chrome(options=options, service=Service(executable_path=shutil.which("chromedriver")))
        self.driver.set_script_timeout(30)

    # -- 1 and 2: the map

    def test_map(self):
        a = self.args
        # The listing comes a page at a time: the console shows the first page and searches the server for the rest.
        first = self.http("GET", "/v1/networks")
        self.first_page_ids = [n["id"] for n in first["networks"]]
        self.network_ids, page = list(self.first_page_ids), first
        while page.get("next_cursor"):
            page = self.http("GET", "/v1/networks?" + urllib.parse.urlencode({"cursor": page["next_cursor"], "limit": 10000}))
            self.network_ids += [n["id"] for n in page["networks"]]
        self.check(a.network in self.network_ids, f"network {a.network!r} is not in GET /v1/networks")

        d = self.driver
        d.get(f"{self.base}/console/#map/{a.lat}/{a.lon}/{a.zoom}")
        self.wait(lambda d: d.execute_script(
            "const s = document.querySelector('#map'); return s && s.dataset.world === 'loaded'"), "the base map")
        state = self.map_state()
        self.check(abs(state["zoom"] - a.zoom) < 1e-9 and abs(state["lat"] - a.lat) < 1e-4 and abs(state["lon"] - a.lon) < 1e-4,
                   f"the map did not open at the URL's view: {state}")
        self.ok(f"map opens at {a.lat}, {a.lon}, zoom {a.zoom}")

        if a.zoom >= 11:
            self.wait(lambda d: (d.find_element("css selector", "#map").get_attribute("data-locations") or "")
                      not in ("", "loading", "hidden"), "store locations in view")
            count = self.css("#map")[0].get_attribute("data-locations")
            self.check(count != "error", "GET /v1/locations failed (see the map notice)")
            self.ok(f"{count} store locations drawn in view")

        card_filter = self.css("#card-filter")[0]
        card_filter.clear()
        card_filter.send_keys(a.network)
        box = self.wait(lambda d: next(iter(self.css(f'#card-list input[data-network-id="{a.network}"]')), None),
                        f"network {a.network} in the card picker")
        if not box.is_selected():
            box.click()
        self.wait(lambda d: self.css(f'#card-chips .chip[data-network-id="{a.network}"]'), "the chip of the picked card")
        self.ok(f"card network {a.network} picked")

        # A Saturday evening on the phone's clock: the request carries it as RFC 3339 with an offset.
        d.execute_script("document.getElementById('local-time').value = '2026-11-28T19:00'")
        from selenium.webdriver.common.action_chains import ActionChains
        surface = self.css("#map")[0]
        ActionChains(d).move_to_element(surface).click().perform()
        self.wait(lambda d: self.css("#refresh-result")[0].get_attribute("data-state") in ("done", "error"), "the refresh answer")
        if self.css("#refresh-result")[0].get_attribute("data-state") == "error":
            raise Failure("the refresh request failed: " + self.css("#refresh-result")[0].text)
        request = json.loads(d.execute_script("return document.getElementById('refresh-request').textContent"))
        self.check(a.network in request.get("user_networks", []) and request.get("explain") is True,
                   f"the page's request lacks the card or explain: {request}")
        self.check(re.fullmatch(r"2026-11-28T19:00:00[+-]\d\d:\d\d", request.get("local_time", "")) is not None,
                   f"the page's request lacks the local time as RFC 3339: {request.get('local_time')}")
        centre = self.map_state()
        self.check(haversine(request["lat"], request["lon"], centre["lat"], centre["lon"]) < 3 * centre["mpp"],
                   f"the click at the map centre asked for {request['lat']}, {request['lon']}, not the centre")

        answer = self.http("POST", "/v1/region-refresh", request)
        regions = answer["regions"]
        self.check(regions, "the server returned no region for this place: pick a place and network with locations")
        state = self.map_state()
        circles = state["circles"]
        self.check(len(circles) == len(regions), f"{len(circles)} region circles drawn, the server returned {len(regions)} regions")
        self.check(len(self.css("#refresh-result .region-item")) == len(regions), "the side panel does not list every region")
        self.ok(f"{len(circles)} circles for {len(regions)} regions")

        drawn = {c["id"]: c for c in circles}
        worst = 0.0
        measured_count = 0
        for region in regions:
            c = drawn.get(region["id"])
            self.check(c is not None, f"region {region['id']} has no circle")
            expected = region["radius_meters"]
            self.check(abs(c["meters"] - expected) <= 1e-6 * max(1, expected),
                       f"{region['id']}: data-radius-meters {c['meters']} but the server says {expected}")
            # Leaflet leaves out the geometry of a circle wholly outside the view: only those in view are measured.
            if not self.in_view(state, region):
                continue
            measured_count += 1
            ew, ns, centre_lat, centre_lon = self.measure(state, c)
            # Leaflet draws a circle's centre and radius in whole pixels: half a pixel is the drawing's resolution.
            pixel = PIXEL_SLACK * state["mpp"]
            offset = haversine(centre_lat, centre_lon, region["lat"], region["lon"])
            self.check(offset <= max(2.0, TOLERANCE * expected, pixel),
                       f"{region['id']}: the circle's centre is {offset:.1f} m from the region's coordinates")
            for name, measured in (("east-west", ew), ("north-south", ns)):
                error = abs(measured - expected) / expected
                worst = max(worst, error)
                self.check(abs(measured - expected) <= max(TOLERANCE * expected, pixel),
                           f"{region['id']}: drawn {name} radius {measured:.2f} m, "
                           f"server radius_meters {expected} m ({error:.1%} off, {abs(measured - expected) / state['mpp']:.2f} px)")
        self.check(measured_count > 0, "no region circle lies in the view to measure")
        self.ok(f"every drawn radius within {TOLERANCE:.0%} or {PIXEL_SLACK} px of radius_meters "
                f"({measured_count} in view, worst {worst:.2%})")

        refresh_ring = self.css("#map .refresh-distance")
        self.check(len(refresh_ring) == 1 and abs(float(refresh_ring[0].get_attribute("data-radius-meters"))
                                                  - answer["refresh_after_meters"]) < 1e-6,
                   "the dashed refresh-distance circle is missing or has the wrong radius")
        self.check(self.css("#map .query-marker"), "the clicked point has no marker")
        self.ok("refresh distance circle and clicked point drawn")

        first = min(regions, key=lambda r: r["priority"])
        label = self.css(f'#map .region-label[data-region-id="{first["id"]}"]')[0]
        ActionChains(d).move_to_element(label).perform()
        tip = self.wait(lambda d: next((t for t in self.css("#map .map-tooltip") if t.is_displayed()), None), "the region tooltip")
        text = tip.text
        self.check(first["name"] in text, f"the tooltip does not name the region: {text!r}")
        if first.get("explain"):
            missing = [k for k in first["explain"] if k not in text]
            self.check(not missing, f"the tooltip lacks explain keys {missing}")
        self.ok("hovering a region shows its tooltip with the explain rows")

        self.screenshot(a.map_shot)
        self.collect_logs("map")

    def map_state(self):
        return self.driver.execute_script("""
            // The view as the page reports it, and each region circle as the browser drew it: its box on the screen,
            // relative to the map's container (the ground under whose middle pixel is the reported centre).
            const root = document.querySelector('#map'), box = root.querySelector('.map-leaflet').getBoundingClientRect();
            const circles = [...root.querySelectorAll('path[data-region-id]')].map((c) => {
              const b = c.getBoundingClientRect();
              return {id: c.dataset.regionId, meters: Number(c.dataset.radiusMeters),
                      cx: b.left + b.width / 2 - box.left, cy: b.top + b.height / 2 - box.top, rx: b.width / 2, ry: b.height / 2};
            });
            return {lat: Number(root.dataset.centerLat), lon: Number(root.dataset.centerLon), zoom: Number(root.dataset.zoom),
                    mpp: Number(root.dataset.metersPerPixel), w: box.width, h: box.height, circles};
        """)

    def in_view(self, state, region):
        """Whether a region's circle reaches into the map, from its coordinates and the view (Web Mercator)."""
        ws = 256 * 2 ** state["zoom"]
        ux, uy = project(state["lat"], state["lon"])
        rx, ry = project(region["lat"], region["lon"])
        px, py = (rx - ux) * ws + state["w"] / 2, (ry - uy) * ws + state["h"] / 2
        r = region["radius_meters"] / state["mpp"]
        return -r < px < state["w"] + r and -r < py < state["h"] + r

    def measure(self, state, c):
        """The circle's radius in metres east-west and north-south, and its centre, from pixels."""
        ws = 256 * 2 ** state["zoom"]
        ux, uy = project(state["lat"], state["lon"])
        at = lambda px, py: unproject(ux + (px - state["w"] / 2) / ws, uy + (py - state["h"] / 2) / ws)
        west, east = at(c["cx"] - c["rx"], c["cy"]), at(c["cx"] + c["rx"], c["cy"])
        north, south = at(c["cx"], c["cy"] - c["ry"]), at(c["cx"], c["cy"] + c["ry"])
        centre = at(c["cx"], c["cy"])
        return haversine(*west, *east) / 2, haversine(*north, *south) / 2, centre[0], centre[1]

    # -- 3: networks

    def test_networks(self):
        self.css('.tabs a[data-view="networks"]')[0].click()
        self.wait(lambda d: self.css("#network-table")[0].get_attribute("data-state") in ("loaded", "error"), "the networks table")
        table = self.css("#network-table")[0]
        self.check(table.get_attribute("data-state") == "loaded", "the networks table failed to load: " + self.css("#network-status")[0].text)
        total, shown = int(table.get_attribute("data-total")), int(table.get_attribute("data-shown"))
        ids = self.driver.execute_script("return [...document.querySelectorAll('#network-table tbody tr')].map((r) => r.dataset.networkId)")
        self.check(total == len(self.first_page_ids),
                   f"the table knows {total} networks, the first page of GET /v1/networks has {len(self.first_page_ids)}")
        if total == shown:
            self.check(sorted(ids) == sorted(self.first_page_ids), "the table's networks differ from GET /v1/networks")
        else:
            self.check(set(ids) <= set(self.network_ids) and len(ids) == shown, "the table shows networks not in GET /v1/networks")
        self.ok(f"networks table lists {shown} of {total} networks from GET /v1/networks")
        self.collect_logs("networks")

    # -- 4 and 5: token and imports

    def test_imports(self):
        a, d = self.args, self.driver
        self.css('.tabs a[data-view="imports"]')[0].click()
        self.wait(lambda d: self.css("#view-imports")[0].is_displayed(), "the imports view")
        if not self.css("#imports-unlocked")[0].is_displayed():
            self.check(self.css("#imports-locked")[0].is_displayed(), "without a token the imports view shows neither the form nor the notice")
            self.css("#imports-token-button")[0].click()
            field = self.wait(lambda d: next((e for e in self.css("#token-input") if e.is_displayed()), None), "the token dialog")
            field.send_keys(a.token)
            self.css('#token-form button[value="save"]')[0].click()
        self.wait(lambda d: self.css("#imports-unlocked")[0].is_displayed(), "the import form after setting the token")
        stores = d.execute_script("""return {session: Object.values(sessionStorage), local: Object.values(localStorage), url: location.href}""")
        self.check(a.token in stores["session"], "the token is not in sessionStorage")
        self.check(not any(a.token in v for v in stores["local"]), "the token leaked into localStorage")
        self.check(a.token not in stores["url"], "the token is in the URL")
        self.ok("admin token kept in sessionStorage only")

        self.css("#import-file")[0].send_keys(str(pathlib.Path(a.csv).resolve()))
        network = self.css("#import-network")[0]
        network.clear()
        network.send_keys(a.import_network)
        dry = self.css("#import-dry-run")[0]
        if dry.is_selected() == a.commit:
            dry.click()
        self.css("#import-submit")[0].click()
        self.wait(lambda d: self.css("#import-result")[0].get_attribute("data-state") in ("done", "error"),
                  "the import result", timeout=a.import_timeout)
        result = self.css("#import-result")[0]
        if result.get_attribute("data-state") == "error":
            raise Failure("the import failed: " + self.css("#import-status")[0].text)
        read = self.wait(lambda d: next(iter(self.css('#import-result [data-count="read"]')), None), "the read count")
        expected = csv_data_rows(a.csv)
        self.check(read.get_attribute("data-value") == str(expected),
                   f"the import read {read.get_attribute('data-value')} rows, the CSV has {expected} data rows")
        upload = self.css("#upload-progress")[0]
        self.check(float(upload.get_attribute("value")) == float(upload.get_attribute("max")), "the upload bar did not reach the end")
        self.ok(f"import of {pathlib.Path(a.csv).name} ({'committed' if a.commit else 'dry run'}) read {expected} rows")

        self.wait(lambda d: self.css("#import-log")[0].get_attribute("data-state") in ("loaded", "error"), "the import log")
        self.check(self.css("#import-log")[0].get_attribute("data-state") == "loaded", "the import log failed: " + self.css("#import-log-status")[0].text)
        buttons = self.css("#import-log tbody button")
        if buttons:
            buttons[0].click()
            self.wait(lambda d: self.css("#import-detail .report") or self.css("#import-detail .alert"), "the import detail")
            self.check(self.css("#import-detail .report"), "the import detail failed: " + self.css("#import-detail")[0].text)
            self.ok(f"import log lists {len(buttons)} imports and opens one")
        d.execute_script("document.getElementById('import-result').scrollIntoView()")
        self.screenshot(a.imports_shot, full_page=True)
        self.collect_logs("imports")

    # -- 5b: one location added and deleted from the networks view (the token is set by now)

    def test_location_edit(self):
        from selenium.webdriver.common.by import By
        d = self.driver
        self.css('.tabs a[data-view="networks"]')[0].click()
        edit = self.wait(lambda d: next(iter(self.css("#network-table tbody button")), None), "an Edit button with the token set")
        network = d.execute_script("return document.querySelector('#network-table tbody tr').dataset.networkId")
        edit.click()
        form = self.wait(lambda d: next((e for e in self.css("#location-form") if e.is_displayed()), None), "the location form")
        values = {"id": "console-check", "name": "Console check", "latitude": "40.7501", "longitude": "-73.9901"}
        for name, value in values.items():
            field = form.find_element(By.NAME, name)
            field.clear()
            field.send_keys(value)
        form.find_element(By.NAME, "add").click()
        status = self.css("#network-dialog-status")[0]
        self.wait(lambda d: "inserted" in status.text or "alert error" in status.get_attribute("innerHTML"), "the add's answer")
        self.check("inserted" in status.text, "adding a location failed: " + status.text)
        served = d.execute_script(
            "return fetch('/v1/locations?bbox=-73.9902,40.7500,-73.9900,40.7502').then((r) => r.json())"
            ".then((j) => (j.locations || []).map((l) => l.id))")
        self.check(f"loc_{network}_console-check" in served, f"the added location is not served: {served}")
        form.find_element(By.NAME, "delete").click()
        self.wait(lambda d: "Deleted" in status.text or "alert error" in status.get_attribute("innerHTML"), "the delete's answer")
        self.check("Deleted" in status.text, "deleting the location failed: " + status.text)
        self.css("#network-dialog-close")[0].click()
        self.ok(f"one location added to {network}, served, and deleted from the networks view")
        self.collect_logs("location edit")

    # -- 5c: a key of role read sees the log and edits nothing

    def set_tokens(self, admin="", app=""):
        """Opens the key dialog from the header and saves what is given."""
        self.css("#token-button")[0].click()
        field = self.wait(lambda d: next((e for e in self.css("#token-input") if e.is_displayed()), None), "the key dialog")
        if admin:
            field.send_keys(admin)
        if app:
            self.css("#app-token-input")[0].send_keys(app)
        self.css('#token-form button[value="save"]')[0].click()

    def test_read_role(self):
        a = self.args
        self.set_tokens(admin=a.read_token)
        self.wait(lambda d: self.css("#token-button")[0].get_attribute("data-role") == "read", "the console to learn the key's role (read)")
        self.css('.tabs a[data-view="networks"]')[0].click()
        self.wait(lambda d: self.css("#network-table")[0].get_attribute("data-state") == "loaded", "the networks table")
        headers = [th.text for th in self.css("#network-table thead th")]
        self.check("Admin" not in headers and not self.css("#network-table tbody button"),
                   f"a read key is offered edits: headers {headers}")
        self.css('.tabs a[data-view="imports"]')[0].click()
        self.wait(lambda d: self.css("#imports-read-only")[0].is_displayed(), "the read-only notice of the imports view")
        self.check(not self.css("#import-form")[0].is_displayed(), "a read key is offered the upload form")
        self.wait(lambda d: self.css("#import-log")[0].get_attribute("data-state") == "loaded", "the import log for a read key")
        self.ok("a read key sees the networks and the import log, and is offered no edit and no upload")
        self.collect_logs("read role")

    # -- 5d: a server run with --client-jwt: the console sends the app's token to /v1/*

    def test_app_token(self):
        a, d = self.args, self.driver
        d.get(f"{self.base}/console/#networks")
        self.wait(lambda d: self.css("#network-table")[0].get_attribute("data-state") in ("loaded", "error"), "the networks table")
        self.check(self.css("#network-table")[0].get_attribute("data-state") == "error",
                   "the networks table loaded without the app token from a server that asks for one")
        d.get_log("browser")  # the 401s just asked for: not the console's own faults
        self.set_tokens(app=a.app_token)
        stores = d.execute_script("return {session: Object.values(sessionStorage), local: Object.values(localStorage)}")
        self.check(a.app_token in stores["session"] and not any(a.app_token in v for v in stores["local"]),
                   "the app token is not kept in sessionStorage alone")
        self.css("#network-reload")[0].click()
        self.wait(lambda d: self.css("#network-table")[0].get_attribute("data-state") == "loaded", "the networks table with the app token")
        self.ok("with --client-jwt the console sends the app token it was given (sessionStorage only) and lists the networks")
        self.collect_logs("app token")

    # -- 6: origin and console

    def test_tiles(self):
        """With --console-tiles: tiles come from the tile server and only from there, with its attribution shown."""
        a, d = self.args, self.driver
        d.get(f"{self.base}/console/#map/{a.lat}/{a.lon}/{a.zoom}")
        loaded = self.wait(lambda d: d.execute_script(
            "const t = [...document.querySelectorAll('#map img.leaflet-tile-loaded')]; return t.length ? t.map((i) => i.src) : null"),
            "tiles from the tile server")
        self.check(all(src.startswith(a.tiles_origin + "/") for src in loaded), f"tiles from elsewhere: {loaded[:3]}")
        text = self.css("#map .leaflet-control-attribution")[0].text
        self.check(a.tiles_attribution in text and "Natural Earth" in text, f"the attribution reads {text!r}")
        self.ok(f"{len(loaded)} tiles from {a.tiles_origin}, credited")
        self.screenshot(a.map_shot)

    def test_hygiene(self):
        origin = self.driver.execute_script("return location.origin")
        allowed = [origin] + ([self.args.tiles_origin] if self.args.tiles_origin else [])
        requested = self.driver.execute_script("return performance.getEntriesByType('resource').map((e) => e.name)")
        foreign = [u for u in requested if not u.startswith("data:") and not any(u.startswith(o + "/") for o in allowed)]
        self.check(not foreign, f"requests outside {' and '.join(allowed)}: {foreign}")
        self.ok(f"no request outside {'the page' if len(allowed) == 1 else 'the page and the tile server'}'s origin")
        self.collect_logs("end")
        for phase, entry in self.logs:
            if entry.get("level") not in ("SEVERE",):
                print(f"  browser {entry.get('level')} ({phase}): {entry.get('message')}")
        severe = [(p, e) for p, e in self.logs if e.get("level") == "SEVERE"]
        self.check(not severe, "SEVERE browser console entries: " + "; ".join(f"[{p}] {e.get('message')}" for p, e in severe))
        self.ok("no SEVERE entry in the browser console")

    def screenshot(self, path, full_page=False):
        if not path:
            return
        path = pathlib.Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        if full_page:
            # The view scrolls inside <main>, not the document: grow the window to the view's height for the shot.
            height = self.driver.execute_script(
                "const v = document.querySelector('.view:not([hidden])'); v.scrollTop = 0;"
                "return Math.ceil(v.getBoundingClientRect().top + v.scrollHeight) + (window.outerHeight - window.innerHeight)")
            self.driver.set_window_size(self.args.width, min(max(height, self.args.height), 8000))
            self.driver.save_screenshot(str(path))
            self.driver.set_window_size(self.args.width, self.args.height)
        else:
            self.driver.save_screenshot(str(path))
        print(f"  screenshot {path}")

    def run(self):
        self.start()
        try:
            if self.args.tiles_origin:
                if self.args.app_token:
                    self.test_app_token()
                self.test_tiles()
            else:
                self.test_map()
                self.test_networks()
                self.test_imports()
                self.test_location_edit()
                if self.args.read_token:
                    self.test_read_role()
            self.test_hygiene()
        finally:
            self.driver.quit()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--url", default=os.environ.get("ONCUE_CONSOLE_URL", "http://127.0.0.1:8080"), help="server base URL")
    ap.add_argument("--token", default=os.environ.get("ONCUE_ADMIN_TOKEN"), help="admin token ($ONCUE_ADMIN_TOKEN)")
    ap.add_argument("--lat", type=float, required=True)
    ap.add_argument("--lon", type=float, required=True)
    ap.add_argument("--zoom", type=float, default=15)
    ap.add_argument("--network", required=True, help="the card network to pick (an id of GET /v1/networks)")
    ap.add_argument("--csv", required=True, help="a CSV file to upload")
    ap.add_argument("--import-network", default="console-test", help="the network query parameter of the upload")
    ap.add_argument("--commit", action="store_true", help="commit the import (default: dry run, the store is left as it was)")
    ap.add_argument("--import-timeout", type=float, default=300)
    ap.add_argument("--map-shot", help="PNG path for the map screenshot")
    ap.add_argument("--imports-shot", help="PNG path for the imports screenshot")
    ap.add_argument("--tiles-origin", help="the server runs with --console-tiles from this origin: check the tiles only")
    ap.add_argument("--tiles-attribution", default="© OpenStreetMap contributors", help="the attribution it was given")
    ap.add_argument("--read-token", help="a key of role read: check the console offers it no edit and no upload")
    ap.add_argument("--app-token", help="the server runs with --client-jwt: check the console sends this access token")
    ap.add_argument("--width", type=int, default=1400)
    ap.add_argument("--height", type=int, default=900)
    args = ap.parse_args()
    if not args.token:
        ap.error("give --token or set ONCUE_ADMIN_TOKEN")
    if not pathlib.Path(args.csv).is_file():
        ap.error(f"no file {args.csv}")

    ensure_environment()
    test = ConsoleTest(args)
    try:
        test.run()
    except Failure as e:
        print(f"FAIL: {e}", flush=True)
        print(f"{test.passed} passed, 1 failed")
        sys.exit(1)
    except Exception as e:  # a WebDriver error is a failure too, with its message
        print(f"FAIL: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}", flush=True)
        print(f"{test.passed} passed, 1 failed")
        sys.exit(1)
    print(f"{test.passed} passed, 0 failed")


if __name__ == "__main__":
    main()
