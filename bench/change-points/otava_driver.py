# Runs Apache Otava's change-point detection (compute_change_points, its default settings:
# window 50, p 0.001, no minimum magnitude) on the series the bench sends as JSON on stdin, with
# the same daily-run scan the bench uses for mesh-perf: analyse each prefix after the step until
# a change point near the step is reported. Prints JSON on stdout.
import json
import sys

from otava.analysis import compute_change_points


def points(values):
    found, _ = compute_change_points(values)
    return [[int(cp.index), float(cp.stats.forward_rel_change())] for cp in found]


def main():
    job = json.load(sys.stdin)
    out = []
    for case in job["series"]:
        values = case["values"]
        step = case.get("stepAt")
        tolerance = job["tolerance"]
        delay = None
        if step is not None:
            for k in range(step + job["firstLook"], len(values) + 1):
                if any(abs(i - step) <= tolerance for i, _ in points(values[:k])):
                    delay = k - step
                    break
        out.append({"delay": delay, "final": points(values)})
    json.dump(out, sys.stdout)


main()
