#!/usr/bin/env python3
"""Turns a `deferral-sim run --events-log` file into the bundled sample logs of `fit`, one per
supported format, keeping the first DAYS days (default 2) and the screen views' order.

  deferral-sim run scenarios/fit-samples/round-trip.json --users 50 --events-log \
      --out /tmp/samples --no-report --quiet
  python3 scenarios/fit-samples/make-samples.py /tmp/samples/events.csv scenarios/fit-samples

Writes generic.csv, generic.jsonl, firebase.jsonl and amplitude.jsonl (see README.md). Times
start at 2024-05-01T00:00:00Z. Users are renamed (u<replication>-<user>) and sorted by user,
then time, as fit expects.

The four-month sample is every day of one run, in the generic CSV only:

  deferral-sim run scenarios/fit-samples/cohort.json --users 250 --events-log \
      --out /tmp/cohort --no-report --quiet
  python3 scenarios/fit-samples/make-samples.py --cohort /tmp/cohort/events.csv \
      scenarios/fit-samples/cohort.csv
"""
import csv
import datetime
import json
import sys

BASE = datetime.datetime(2024, 5, 1, tzinfo=datetime.timezone.utc).timestamp()


def iso(seconds, sep="T", zone="Z", digits=3):
    moment = datetime.datetime.fromtimestamp(BASE + seconds, tz=datetime.timezone.utc)
    text = moment.strftime(f"%Y-%m-%d{sep}%H:%M:%S.%f")
    return text[: len(text) - (6 - digits)] + zone


def read(events, days):
    rows = []
    with open(events, newline="") as handle:
        for row in csv.DictReader(handle):
            if float(row["timestamp"]) < days * 86400:
                rows.append(row)
    rows.sort(key=lambda r: (int(r["replication"]), int(r["user"]), float(r["timestamp"])))
    return rows


def write_generic_csv(rows, path):
    with open(path, "w", newline="") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["user_id", "timestamp", "screen", "event"])
        for r in rows:
            writer.writerow([f"u{r['replication']}-{r['user']}", iso(float(r["timestamp"])), r["screen"], r["event"]])


def main(events, folder, days=2.0):
    rows = read(events, days)
    write_generic_csv(rows, f"{folder}/generic.csv")
    with open(f"{folder}/generic.jsonl", "w") as out:
        for r in rows:
            out.write(json.dumps({
                "user_id": f"u{r['replication']}-{r['user']}",
                "timestamp": round(BASE + float(r["timestamp"]), 3),
                "screen": r["screen"], "event": r["event"], "session": int(r["session"]),
            }) + "\n")
    firebase = open(f"{folder}/firebase.jsonl", "w")
    amplitude = open(f"{folder}/amplitude.jsonl", "w")
    session_start = {}
    for r in rows:
        user = f"u{r['replication']}-{r['user']}"
        t = float(r["timestamp"])
        key = (user, r["session"])
        session_start.setdefault(key, t)
        start = BASE + session_start[key]
        micros = str(int(round((BASE + t) * 1e6)))
        params = [{"key": "ga_session_id", "value": {"int_value": str(int(start))}}]
        if r["event"] == "screen_view":
            params.insert(0, {"key": "firebase_screen", "value": {"string_value": r["screen"]}})
            name = "screen_view"
        else:
            params.append({"key": "engagement_time_msec", "value": {"int_value": "1000"}})
            name = "user_engagement"
        firebase.write(json.dumps({
            "event_date": iso(t, zone="")[:10].replace("-", ""), "event_timestamp": micros,
            "event_name": name, "event_params": params, "user_pseudo_id": user,
            "platform": "IOS",
        }) + "\n")
        amplitude.write(json.dumps({
            "user_id": user, "device_id": f"device-{user}",
            "event_type": "[Amplitude] Screen Viewed" if r["event"] == "screen_view" else "[Amplitude] End Session",
            "event_time": iso(t, sep=" ", zone="", digits=6), "session_id": int(round(start * 1000)),
            "event_properties": {"[Amplitude] Screen Name": r["screen"]} if r["event"] == "screen_view" else {},
            "platform": "iOS",
        }) + "\n")
    firebase.close()
    amplitude.close()


if __name__ == "__main__":
    if sys.argv[1] == "--cohort":
        write_generic_csv(read(sys.argv[2], float("inf")), sys.argv[3])
    else:
        main(sys.argv[1], sys.argv[2], float(sys.argv[3]) if len(sys.argv) > 3 else 2.0)
