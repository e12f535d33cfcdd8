"""clgather tune: it measures the tunables on a case table, prints its choices against the table's,
stores a profile that later contexts (and clgather-bench) use, and refuses what it cannot tune.
Small cases (--cases) keep it to seconds; the built-in table's --quick run is `clgather tune --quick`."""
import json
import os
import subprocess
import sys

from cli_common import SKIP_STATUS, check, expect_status, fresh_work_dir, failures, path

CASES = """\
# small cases of each kind the tuner walks on a CPU device
rows      op=gather    preset=ov-gather-8 data=f32[4096,64] indices=i32[8192] seed=1
last-axis op=gather    preset=ov-gather-8 data=f32[512,512] indices=i32[256] axis=1 seed=2
elements  op=elements  preset=ov-gather-elements-6 data=f32[256,256] indices=i64[256,64] axis=1 seed=3
tree      op=tree      data=i32[32,16,8] seed=4 time=wall
q4        op=quantized layout=ort-u4 data=f16[2048,256] indices=i64[512] seed=5
q8        op=quantized layout=ggml-q8_0 data=f32[1024,256] indices=i64[256] seed=6
bag       op=bag       preset=torch-embedding-bag form=offsets mode=sum data=f32[4096,64] indices=i64[256,8] seed=8
tiny      op=gather    preset=ov-gather-8 data=f32[16,16] indices=i32[4] seed=7 time=wall
"""

# a quantized bag alone: the tunables its kernels read, two of them walked as pairs
QBAG_CASES = """\
qbag      op=bag       preset=torch-embedding-bag form=offsets mode=sum layout=fbgemm-8bit-rowwise data=f32[4096,64] indices=i64[256,8] seed=9
"""


def stored_profile(out, cache):
    """The profile a tune run wrote, and its text, after checking that it holds every printed choice:
    each tunable's chosen value, or the table's where the run kept those."""
    lines = out.splitlines()
    written = [line for line in lines if line.startswith("profile: ")]
    check(len(written) == 1, f"no profile line: {out}")
    if not written:
        return None, ""
    profile = written[0][len("profile: "):].split(" (")[0]
    check(profile.startswith(cache + "/tuning-") and os.path.isfile(profile), f"profile not in the cache: {profile}")
    with open(profile) as f:
        text = f.read()
    check(text.startswith("# clgather tuning profile 1\n# key "), f"profile header: {text[:80]!r}")
    kept = "the table's values are kept" in out
    walked = [line.split() for line in lines if len(line.split()) >= 3 and f"\n{line.split()[0]} = " in text
              and line.split()[1].isdigit() and line.split()[2].isdigit()]
    check(len(walked) >= 2, f"no tunable rows found in: {out}")
    for name, table_value, chosen_value in (row[:3] for row in walked):
        stored = table_value if kept else chosen_value
        check(f"\n{name} = {stored}\n" in text, f"{name}: the profile does not hold {stored} ({'kept' if kept else 'tuned'}):\n{text}")
    return profile, text


def main():
    fresh_work_dir()
    cases = path("cases.txt")
    with open(cases, "w") as f:
        f.write(CASES)
    cache = path("cache")
    env = {"CLGATHER_CACHE_DIR": cache, "CLGATHER_TUNING": ""}

    out, _ = expect_status(["tune", "--cases", cases, "--quick"], 0, "tune on small cases", env=env)
    lines = out.splitlines()
    check(any(line.startswith("# table: ") for line in lines), f"no table row named: {out}")
    chosen = [line.split() for line in lines if line.split() and line.split()[0] in (
        "run_bytes", "runs_local_size", "adjacent_local_size", "grid_groups_per_cu")]
    check(len(chosen) >= 2, f"no choices printed: {out}")
    for row in chosen:
        check(len(row) >= 3 and row[1].isdigit() and row[2].isdigit(), f"a choice without its values: {row}")
    # a float bag's tunables are walked on the runs mapping, the quantized bag's (which its kernels never
    # read) are not: no case here has a quantized table
    if "the runs mapping" in out:
        check(any(line.startswith("bag_sum_columns ") for line in lines), f"bag_sum_columns not walked: {out}")
    check(not any(line.startswith("bag_quantized_") for line in lines),
          f"a quantized bag tunable walked without a quantized bag case: {out}")
    for name in ("rows", "last-axis", "elements", "tree", "q4", "q8", "bag"):
        check(any(line.startswith(name + " ") for line in lines), f"case {name} not in the table of cases: {out}")
    check(not any(line.startswith("tiny ") for line in lines), "tiny (a call's overhead) was tuned on")
    profile, text = stored_profile(out, cache)
    if not profile:
        return
    check("\nrun_bytes = " in text and "\ncopy_local_size = " in text, "profile lacks tunables")

    # a quantized bag's prefetches are walked as pairs: a row for each, the pairs in the first's trail,
    # and both stored as printed (on a runs-mapping device; the adjacent mapping has no prefetch)
    if "the runs mapping" in out:
        qbag_cases, qbag_cache = path("qbag.txt"), path("qbag-cache")
        with open(qbag_cases, "w") as f:
            f.write(QBAG_CASES)
        qout, _ = expect_status(["tune", "--cases", qbag_cases, "--quick"], 0, "tune on a quantized bag",
                                env={"CLGATHER_CACHE_DIR": qbag_cache, "CLGATHER_TUNING": ""})
        rows = {line.split()[0]: line for line in qout.splitlines() if line.startswith("bag_quantized_prefetch_")}
        by_index, ahead = rows.get("bag_quantized_prefetch_rows", ""), rows.get("bag_quantized_prefetch_ahead", "")
        check(" 32,0: " in by_index and "pairs: this,bag_quantized_prefetch_ahead" in by_index,
              f"the prefetches' pairs are not in the trail: {qout}")
        check("walked with bag_quantized_prefetch_rows" in ahead, f"no row for the bags ahead: {qout}")
        check(" 1: " in rows.get("bag_quantized_prefetch_current", ""), f"no row for the current bag's rows: {qout}")
        check(not any(line.startswith("bag_sum_columns ") for line in qout.splitlines()),
              f"a float bag tunable walked on a quantized bag alone: {qout}")
        stored_profile(qout, qbag_cache)

    # a --dry-run writes nothing: the profile stays as it was
    marked = text + "# left by the test\n"
    with open(profile, "w") as f:
        f.write(marked)
    expect_status(["tune", "--cases", cases, "--quick", "--dry-run"], 0, "tune --dry-run", env=env)
    with open(profile) as f:
        check(f.read() == marked, "--dry-run rewrote the profile")

    # clgather-bench names the profile it ran with, in its table and its JSON; CLGATHER_TUNING=0 ignores it
    bench = os.environ.get("CLGATHER_BENCH", "")
    if bench and os.path.exists(bench):
        report = path("bench.json")
        run_env = dict(os.environ, CLGATHER_CACHE_DIR=cache, CLGATHER_TUNING="")
        proc = subprocess.run([bench, "--cases", cases, "--case", "rows", "--repeat", "10", "--ref-repeat", "1",
                               "--no-first-call", "--json", report], capture_output=True, text=True, env=run_env,
                              timeout=300)
        check(proc.returncode == 0, f"clgather-bench: {proc.returncode} {proc.stderr}")
        check(f"profile {profile}" in proc.stdout, f"the bench's table does not name the profile: {proc.stdout[:600]}")
        if proc.returncode == 0:
            with open(report) as f:
                check(json.load(f)["tuning"]["profile"] == profile, "the bench's JSON does not name the profile")
        run_env["CLGATHER_TUNING"] = "0"
        proc = subprocess.run([bench, "--cases", cases, "--case", "rows", "--repeat", "10", "--ref-repeat", "1",
                               "--no-first-call"], capture_output=True, text=True, env=run_env, timeout=300)
        check(proc.returncode == 0 and "no profile" in proc.stdout, "CLGATHER_TUNING=0 did not ignore the profile")
    else:
        print("clgather-bench not built: its naming of the profile is not checked here")

    # refusals: the CPU reference has no tuning; a case table that is not one
    expect_status(["tune", "--device", "cpu", "--cases", cases], 1, "tune on the CPU reference",
                  stderr_contains="has no tuning", env=env)
    expect_status(["tune", "--cases", path("missing.txt")], 1, "tune with a missing table",
                  stderr_contains="missing.txt", env=env)
    expect_status(["tune", "--bogus"], 2, "tune with an unknown option", env=env)


if __name__ == "__main__":
    if subprocess.run([sys.argv[1], "devices"], capture_output=True, text=True).stdout.find("no OpenCL device") >= 0:
        print("no OpenCL device: clgather tune needs one")
        sys.exit(SKIP_STATUS)
    main()
    if failures:
        print(f"{len(failures)} check(s) failed")
        sys.exit(1)
    print("all checks passed")
