#!/usr/bin/env python3
"""Benchmark report: medians per cell, suspend2/mainline ratios from the
same run, the floor of each cell, a Markdown table and a gnuplot chart."""
import csv
import datetime
import os
import statistics
import subprocess
import sys



def chart(points, dat, png):
    """points: (label, hibernate s, resume s); a histogram into png."""
    with open(dat, "w") as f:
        for label, hib, res in points:
            f.write('"{}" {} {}\n'.format(label, hib or 0, res or 0))
    try:
        subprocess.run(["gnuplot", "-e",
                        f"set terminal png size 1400,600; set output '{png}';"
                        "set style data histograms; set style fill solid; set xtics rotate by -45;"
                        "set ylabel 'seconds'; set yrange [0:*]; set rmargin 12; set title 'suspend2 vs mainline: hibernate and resume time (median)';"
                        f"plot '{dat}' using 2:xtic(1) title 'hibernate', '' using 3 title 'resume'"],
                       check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"bench: no chart ({e})", file=sys.stderr)


def chart_from_doc(doc):
    """The chart of DOC's first table (disk, method, runs, hibernate s,
    write s, resume s, ...), beside DOC: for a table kept without its
    raw data."""
    points = []
    for line in open(doc):
        cols = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cols) < 6 or not line.startswith("| "):
            if points:
                break
            continue
        try:
            hib, res = float(cols[3]), float(cols[5])
        except ValueError:
            continue
        disk = cols[0].replace(" MB/s", "MB/s").replace("unthrottled", "fast")
        points.append((f"{disk} {cols[1]}", hib, res))
    if not points:
        sys.exit(f"bench: {doc} has no table with hibernate and resume times")
    base = os.path.splitext(doc)[0]
    chart(points, base + ".dat", base + ".png")
    os.unlink(base + ".dat")


# report.py --chart DOC: only the chart, from the table DOC has.
if sys.argv[1:2] == ["--chart"]:
    chart_from_doc(sys.argv[2])
    sys.exit(0)

raw, outdir, doc = sys.argv[1:4]
rows = list(csv.DictReader(open(raw), delimiter="\t"))


def med(values):
    v = [float(x) for x in values if x not in ("", None)]
    return statistics.median(v) if v else None


cells = {}
for r in rows:
    key = (int(r["speed"]), r["cell"])
    cells.setdefault(key, []).append(r)

summary = {}
for key, rs in cells.items():
    good = [r for r in rs if r["ok"] == "yes"]
    summary[key] = {
        "runs": f"{len(good)}/{len(rs)}",
        **{f: med(r.get(f) for r in good) for f in
           ("hibernate_s", "write_s", "resume_s", "read_s", "image_bytes", "raw_bytes",
            "disk_bytes", "warm_pages", "warm_before", "warm_after", "reread_s",
            "check_s")},
    }

# One core's compressor speed, from the single-threaded cells on the
# unthrottled (or fastest) disk: raw bytes over write time.
core_speed = {}
for (speed, cell), s in summary.items():
    parts = cell.split(":")
    if parts[0] == "suspend2" and parts[2:] == ["1"] and s["write_s"]:
        v = s["raw_bytes"] / s["write_s"]
        core_speed[parts[1]] = max(core_speed.get(parts[1], 0), v)
VCPUS = 2


def floor(speed, cell, s):
    if not s["image_bytes"] or not s["raw_bytes"]:
        return None
    disk = s["image_bytes"] / (speed * 1e6) if speed else 0
    comp = cell.split(":")[1]
    if comp == "none":
        cpu = 0
    elif core_speed.get(comp):
        cpu = s["raw_bytes"] / (VCPUS * core_speed[comp])
    else:
        return None     # no single-thread cell measured this compressor
    return max(disk, cpu) or None


def fmt(x, unit=""):
    return "—" if x is None else f"{x:.2f}{unit}"


def speedup(best, ours):
    """How many times faster than mainline's best: above 1 is faster."""
    return best / ours if best and ours else None


lines = ["| disk | method | runs | hibernate s | write s | resume s | read s | image MiB on disk | ratio "
         "| hibernate speed-up | write speed-up | resume speed-up | read speed-up "
         "| write floor s | write / floor | read / disk floor |",
         "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
for speed in sorted({k[0] for k in summary}, key=lambda v: (v == 0, v)):
    mains = [s for (sp, c), s in summary.items() if sp == speed and c.startswith("mainline:")]

    def best(field):
        v = [s[field] for s in mains if s[field]]
        return min(v) if v else None
    for (sp, cell), s in sorted(summary.items(), key=lambda kv: kv[0][1]):
        if sp != speed:
            continue
        ratio = (s["raw_bytes"] / s["image_bytes"]) if s["image_bytes"] and s["raw_bytes"] else None
        fl = floor(speed, cell, s) if cell.startswith("suspend2:") else None
        disk_floor = s["image_bytes"] / (speed * 1e6) if speed and s["image_bytes"] else None
        lines.append("| {} |".format(" | ".join([
            f"{speed} MB/s" if speed else "unthrottled", cell, s["runs"],
            fmt(s["hibernate_s"]), fmt(s["write_s"]), fmt(s["resume_s"]), fmt(s["read_s"]),
            fmt(s["image_bytes"] / 2**20 if s["image_bytes"] else None),
            fmt(ratio, "x"),
            fmt(speedup(best("hibernate_s"), s["hibernate_s"]), "x"),
            fmt(speedup(best("write_s"), s["write_s"]), "x"),
            fmt(speedup(best("resume_s"), s["resume_s"]), "x"),
            fmt(speedup(best("read_s"), s["read_s"]), "x"),
            fmt(fl),
            fmt(s["write_s"] / fl if fl and s["write_s"] else None, "x"),
            fmt(s["read_s"] / disk_floor if disk_floor and s["read_s"] else None, "x")])))
table = "\n".join(lines) + "\n"

# What encryption costs: each encrypted cell against the same cell without
# (suspend2:COMP:THREADS:AEAD against suspend2:COMP:THREADS), same run.
enc_lines = ["| disk | cell | write s | plain write s | write cost | read s | plain read s | read cost |",
             "|---|---|---|---|---|---|---|---|"]


def cost(x, plain):
    return fmt(100 * (x - plain) / plain, " %") if x and plain else "—"


for (speed, cell), s in sorted(summary.items(), key=lambda kv: ((kv[0][0] == 0, kv[0][0]), kv[0][1])):
    parts = cell.split(":")
    if parts[0] != "suspend2" or len(parts) < 4 or parts[3] in ("", "none"):
        continue
    p = summary.get((speed, ":".join(parts[:3])))
    if not p:
        continue
    enc_lines.append("| {} |".format(" | ".join([
        f"{speed} MB/s" if speed else "unthrottled", cell,
        fmt(s["write_s"]), fmt(p["write_s"]), cost(s["write_s"], p["write_s"]),
        fmt(s["read_s"]), fmt(p["read_s"]), cost(s["read_s"], p["read_s"])])))
enc_table = "\n".join(enc_lines) + "\n" if len(enc_lines) > 2 else ""
# A warm system after resume (WARM_MIB): how much of the file set each
# cell's image kept, and how long until it is read again, against
# mainline's best "resume + re-read" in the same run.
warm_lines = ["| disk | cell | runs | hibernate s | resume s | image MiB on disk | file set cached before | after resume | re-read s | resume + re-read s | speed-up | workload check s |",
              "|---|---|---|---|---|---|---|---|---|---|---|---|"]


def pct(part, whole):
    return f"{100 * part / whole:.0f} %" if part is not None and whole else "—"


for speed in sorted({k[0] for k in summary}, key=lambda v: (v == 0, v)):
    here = {c: s for (sp, c), s in summary.items() if sp == speed and s["reread_s"] is not None}
    until = {c: s["resume_s"] + s["reread_s"] for c, s in here.items() if s["resume_s"]}
    mbest = min((v for c, v in until.items() if c.startswith("mainline:")), default=None)
    for cell, s in sorted(here.items()):
        warm_lines.append("| {} |".format(" | ".join([
            f"{speed} MB/s" if speed else "unthrottled", cell, s["runs"],
            fmt(s["hibernate_s"]), fmt(s["resume_s"]),
            fmt((s["image_bytes"] or s["disk_bytes"] or 0) / 2**20 or None),
            pct(s["warm_before"], s["warm_pages"]), pct(s["warm_after"], s["warm_pages"]),
            fmt(s["reread_s"]), fmt(until.get(cell)),
            fmt(speedup(mbest, until.get(cell)), "x"), fmt(s["check_s"])])))
warm_table = "\n".join(warm_lines) + "\n" if len(warm_lines) > 2 else ""
open(os.path.join(outdir, "table.md"), "w").write(table + "\n" + enc_table + "\n" + warm_table)

# The chart beside the document (docs/benchmarks.png), which links it.
png = os.path.splitext(doc)[0] + ".png"
chart([(f"{speed}MB/s {cell}" if speed else f"fast {cell}", s["hibernate_s"], s["resume_s"])
       for (speed, cell), s in sorted(summary.items())],
      os.path.join(outdir, "chart.dat"), png)

commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
doc_text = f"""# Benchmarks

Measured with `make bench` on {datetime.date.today()} at commit {commit}: a 1 GiB
QEMU (TCG, 2 vCPUs) guest, a 400 MiB workload of mixed pages (a quarter
zero, a third text-like, a quarter sparse binary, the rest random; every
page verified after resume), the image on a swap partition on a virtio
disk throttled to the speed shown.  Times are medians over the runs shown;
the speed-ups are mainline's best time for that phase on the same disk in
the same run (the faster of lzo and lz4) divided by the cell's time, so
above 1 is faster than mainline.  "hibernate" is from the trigger to
power off, "resume" from power on to user space running again (host
clock); "write" and "read" are the image phases as each implementation
logs them.  Image size on disk: suspend2's own count; for mainline, its
header, swap map and data pages, counted by walking the swap map chain it
left on the disk (it logs only the raw size).  The write floor is max(image bytes / disk speed, raw
bytes / (2 vCPUs x one core's compressor speed measured in the
single-thread cell)); "read / disk floor" compares the read phase with
image bytes / disk speed.

{table}
{"## Encryption" + chr(10) + chr(10) + "The cost of an encrypted image: the write and read phases of each encrypted cell against the same cell without encryption, same disk, same run (positive: slower)." + chr(10) + chr(10) + enc_table if enc_table else ""}
{"## A warm system after resume" + chr(10) + chr(10) + warm_table if warm_table else ""}
{os.environ.get("BENCH_NOTE", "")}

![chart]({os.path.basename(png)}) (regenerated by `make bench`, with the table)
"""
open(doc, "w").write(doc_text)
print(table)
print(enc_table)
print(warm_table)
