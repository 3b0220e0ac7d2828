#!/usr/bin/env python3
# The tables of docs/configfs.md and man/hibernate.conf.5, and the order of
# hibernate's K_ keys, against kernel/suspend2/names.h, so a doc that
# drifts from the module fails.  Reads the header's rows, one Python tuple
# a line, on stdin (names.sh runs them through the preprocessor).
import ast
import re
import sys

top = sys.argv[1]
tunables, phases, results = [], [], []
for line in sys.stdin:
    line = re.sub(r"(0x[0-9a-fA-F]+)ULL", r"\1", line.strip())
    if not line:
        continue
    row = ast.literal_eval(line.replace("[NULL]", "[]"))
    if row[0] == "T":
        tunables.append(row[1:])
    elif row[0] == "P":
        phases.append(row[1])
    else:
        results.append(row[1])


def same(what, want, got):
    if want == got:
        print("ok - names.h: %s: %r" % (what, want))
    else:
        print("not ok - names.h: %s: want %r, got %r" % (what, want, got))


def num(n):
    return "2^63-1" if n == 2**63 - 1 else str(n)


# The module looks a word's default up in its list when it makes a profile.
for name, kind, store, lo, hi, d, words in tunables:
    if words:
        same("%s's default is one of its words" % name, True, d in words)

keys = re.findall(r"\bK_([A-Z_]+),", open(top + "/cli/conf/conf.h").read())
same("hibernate's K_ keys", [r[0].upper() for r in tunables],
     keys[:len(tunables)])

# docs/configfs.md: the profile attributes' values and defaults.
md = open(top + "/docs/configfs.md").read()
cells = {}
for m in re.finditer(r"^\| `(\w+)` \| ([^|]*) \| ([^|]*) \|", md, re.M):
    cells.setdefault(m.group(1), (m.group(2).strip(), m.group(3).strip()))
for name, kind, store, lo, hi, d, words in tunables:
    values, default = cells.get(name, ("?", "?"))
    if store == "index":
        want = ", ".join("`%s`" % w for w in words)
    elif kind == "FLAG":
        want = "%d, %d" % (lo, hi)
    elif kind == "TARGET":
        want = "absolute path, at most %d bytes" % hi
    elif kind == "KEYSPEC":
        want = values if values.endswith("at most %d bytes" % hi) and \
            "`keyring:NAME`" in values else \
            "`keyring:NAME`..., at most %d bytes" % hi
    elif kind in ("WORD", "COMPRESSOR"):
        # The module's words depend on the running kernel: capabilities.
        want = values if "capabilities" in values else "from capabilities"
    else:
        want = "%d..%s" % (lo, num(hi)) + (" bytes" if kind == "SIZE" else "")
    same("configfs.md %s values" % name, want, values)
    same("configfs.md %s default" % name,
         "empty" if not d else ("`%s`" % d if words else d), default)

# docs/configfs.md: the results attributes, and the phases in order.
sec = md[md.index("| `status` |"):]
sec = sec[:sec.index("\n\n")]
doc = []
for first in re.findall(r"^\| ([^|]*) \|", sec, re.M):
    doc += re.findall(r"`(\w+)`", first)
m = re.search(r"^\| `time_\*_us` \|[^:]*: ([^|]*)\|", sec, re.M)
got = [re.sub(r" \(.*\)", "", p).strip()
       for p in m.group(1).split(",")] if m else []
same("configfs.md phases", phases, got)
same("configfs.md results", sorted(results), sorted(doc))

# man/hibernate.conf.5: each tunable's range, words and default.
man = open(top + "/man/hibernate.conf.5").read().replace("\\-", "-")
for name, kind, store, lo, hi, d, words in tunables:
    m = re.search(r'^\.BI %s " = .*?\n(.*?)(?=^\.TP)' % name, man,
                  re.M | re.S)
    text = re.sub(r"^\.B[IR]? ", "", m.group(1) if m else "", flags=re.M)
    text = " ".join(text.split())
    if kind == "FLAG":
        want = "Default %s" % ("yes" if d == "1" else "no")
    elif kind == "SIZE" and d and int(d) == hi:
        want = "Default max"    # hibernate.conf's word for it
    else:
        want = "Default %s" % d if d else "No default"
    same("hibernate.conf.5 %s: %s" % (name, want), True, want in text)
    if kind == "RANGE":
        want = "%d to %d" % (lo, hi)
    elif kind == "SIZE":
        want = "at most 2^63-1 (%d)" % hi
    elif store == "index":
        want = " or ".join((", ".join(words[:-1]), words[-1]))
        text = text.replace(" ,", ",")
        text = re.sub(r" \([^)]*\)", "", text)
    else:
        continue
    same("hibernate.conf.5 %s: %s" % (name, want), True, want in text)
