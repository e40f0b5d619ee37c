"""One drill's figures as a JSON object, from what scripts/fleet.sh drill left in its directory:

    python3 scripts/lib/fleet_report.py DRILL_DIR NAME STARTED_UNIX

requests.csv and writes.csv (oncue-bench phones), fault_at (when the fault struck), fault.env (what it struck),
lifted (when it was undone, if it was), converge.env (the servers against the leader after the drill) and
leader-ids.txt (the external ids the leader holds in the drill's network).

Rules:
- a public request failed when it failed after the client's retries (RefreshClient's 3 calls);
- p99 before: requests started in the DRILL_BEFORE seconds before the fault; p99 during: those started from the
  fault to 30 s after it (or the end of the load);
- a write answered 409 found the import gate held by another write (the API's "retry when it has finished"): it is
  counted as busy, not as failed;
- writes recovered: from the fault to the end of the first successful write that started after the last failed one
  (0 when no write failed);
- an acknowledged row is one of an import answered 200 (less the rows that answer said it rejected) or a single
  location answered 201; it is lost when the leader does not hold it after the drill. An import whose answer never
  came (status 0) or was a failure acknowledges nothing: its batch is sent again until one attempt is acknowledged,
  and the leader must hold each batch whole or not at all (a batch held in part is reported as half_written).
"""
import csv
import json
import os
import sys

directory, name, started = sys.argv[1], sys.argv[2], float(sys.argv[3])


def env(file):
    path = os.path.join(directory, file)
    if not os.path.exists(path):
        return {}
    return dict(part.split("=", 1) for part in open(path).read().split() if "=" in part)


def p99(values):
    if not values:
        return None
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * 0.99))] * 1000


fault_at = float(open(os.path.join(directory, "fault_at")).read())
lifted_path = os.path.join(directory, "lifted")
lifted = float(open(lifted_path).read()) if os.path.exists(lifted_path) else None
requests = list(csv.DictReader(open(os.path.join(directory, "requests.csv"))))
writes = list(csv.DictReader(open(os.path.join(directory, "writes.csv"))))
held = set(line.strip() for line in open(os.path.join(directory, "leader-ids.txt")) if line.strip())

failed = [r for r in requests if r["outcome"] != "ok"]
outcomes = {}
for r in failed:
    outcomes[r["outcome"]] = outcomes.get(r["outcome"], 0) + 1
before = [float(r["seconds"]) for r in requests if fault_at - 15 <= float(r["started_unix"]) < fault_at]
during = [float(r["seconds"]) for r in requests if fault_at <= float(r["started_unix"]) < fault_at + 30]


def succeeded(w):
    return (w["kind"] == "import" and w["status"] == "200") or (w["kind"] == "location" and w["status"] == "201")


def busy(w):
    return w["status"] == "409"  # another admin write or import held the gate: "retry when it has finished"


after = [w for w in writes if float(w["finished_unix"]) >= fault_at]
failed_writes = [w for w in after if not succeeded(w) and not busy(w)]
recovered = 0.0
if failed_writes:
    last_failure = max(float(w["started_unix"]) for w in failed_writes)
    later = [float(w["finished_unix"]) for w in after if succeeded(w) and float(w["started_unix"]) > last_failure]
    recovered = round(min(later) - fault_at, 2) if later else None

acknowledged = lost = 0
batches = {}
for w in writes:
    batch = int(w["batch"])
    if w["kind"] == "import":
        ids = {f"b{batch}-{i}" for i in range(int(w["rows"]))}
        entry = batches.setdefault(batch, {"ids": ids, "acknowledged": False, "rejected": 0})
        if succeeded(w):
            entry["acknowledged"] = True
            entry["rejected"] = int(w["rejected"])
    elif succeeded(w):
        acknowledged += 1
        lost += f"w{batch}" not in held
half_written = 0
for entry in batches.values():
    have = len(entry["ids"] & held)
    if entry["acknowledged"]:
        acknowledged += len(entry["ids"]) - entry["rejected"]
        lost += max(0, len(entry["ids"]) - entry["rejected"] - have)
    elif 0 < have < len(entry["ids"]):
        half_written += 1
in_flight = [w for w in writes if w["kind"] == "import" and float(w["started_unix"]) <= fault_at <= float(w["finished_unix"])]

fault, converge = env("fault.env"), env("converge.env")
p99_before, p99_during = p99(before), p99(during)
print(json.dumps({
    "drill": name,
    "struck": fault.get("victim"),
    "fault_at_s": round(fault_at - started, 2),
    "lifted_after_s": round(lifted - fault_at, 2) if lifted else None,
    "public_requests": len(requests),
    "failed_after_retries": len(failed),
    "failures": outcomes,
    "retried": sum(1 for r in requests if int(r["calls"]) > 1),
    "p99_before_ms": round(p99_before, 1) if p99_before else None,
    "p99_during_ms": round(p99_during, 1) if p99_during else None,
    "p99_ratio": round(p99_during / p99_before, 2) if p99_before and p99_during else None,
    "import_in_flight_at_fault": bool(in_flight),
    "writes_failed": len(failed_writes),
    "writes_busy": sum(1 for w in writes if busy(w)),
    "writes_recovered_after_s": recovered,
    "acknowledged_rows": acknowledged,
    "lost_acknowledged_rows": lost,
    "half_written_imports": half_written,
    "servers_serving_leader": int(converge.get("servers_matching", 0)),
    "servers_converged_after_s": float(converge.get("converge_seconds", "nan")),
}))
