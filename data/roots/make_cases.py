#!/usr/bin/env python3
"""Generate the ground-truth cases for the polynomial root ("earliest entry") solvers.

Every case is a real polynomial p(t) = c0 + c1 t + c2 t^2 + c3 t^3 + c4 t^4 given by
its f64 coefficients, plus a finite horizon h > 0.  The reference answer `entry` is
computed *exactly* for those f64 coefficients (see README.md next to this file):

  1. t = 0 if p(0) <= 0 and the first non-zero coefficient among c1..c4 is negative;
  2. otherwise the smallest root r in (0, h] where p falls through zero
     (p > 0 just before r, p < 0 just after r);
  3. otherwise no entry.

Only the standard library and mpmath are used.  Output is deterministic.

    python3 data/roots/make_cases.py [--per-family N] [--captured PATH] [--out PATH]
"""

import argparse
import csv
import io
import math
import multiprocessing
import os
import random
import sys
import time
from fractions import Fraction

try:
    import mpmath
    from mpmath import mp, mpf
except ImportError:  # pragma: no cover
    sys.exit("make_cases.py needs mpmath: pip install mpmath")

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 20261121
D_BALL = 0.05715  # two ball radii (m)

# Well-posedness: relative coefficient perturbation 16 * 2^-52 = 2^-48 (exact dyadic).
PERT = Fraction(1, 2 ** 48)
REL_TOL = 1e-9
ABS_TOL = 1e-15

COLUMNS = ["family", "id", "c0", "c1", "c2", "c3", "c4", "horizon",
           "entry", "well_posed", "condition", "note"]

# --------------------------------------------------------------------------------------
# Exact polynomial arithmetic over Q (lists of Fraction, lowest degree first)
# --------------------------------------------------------------------------------------


def p_trim(a):
    a = list(a)
    while a and a[-1] == 0:
        a.pop()
    return a


def p_deriv(a):
    return [i * a[i] for i in range(1, len(a))]


def p_rem(a, b):
    """Remainder of a / b (b non-zero, trimmed)."""
    a = list(a)
    lb = b[-1]
    nb = len(b)
    for i in range(len(a) - nb, -1, -1):
        f = a[i + nb - 1] / lb
        if f:
            for j in range(nb):
                a[i + j] -= f * b[j]
    return p_trim(a[:nb - 1])


def p_div_exact(a, b):
    """Quotient of a / b (b non-zero, trimmed); the remainder is ignored."""
    a = list(a)
    lb = b[-1]
    nb = len(b)
    q = [Fraction(0)] * (len(a) - nb + 1)
    for i in range(len(a) - nb, -1, -1):
        f = a[i + nb - 1] / lb
        q[i] = f
        if f:
            for j in range(nb):
                a[i + j] -= f * b[j]
    return p_trim(q)


def p_monic(a):
    lc = a[-1]
    return [x / lc for x in a]


def p_gcd(a, b):
    a, b = p_trim(a), p_trim(b)
    while b:
        a, b = b, p_rem(a, b)
    return p_monic(a)


def p_eval(a, x):
    acc = Fraction(0)
    for c in reversed(a):
        acc = acc * x + c
    return acc


def sgn(x):
    return (x > 0) - (x < 0)


def squarefree(a):
    """Square-free part of a (same distinct roots, all simple), monic."""
    g = p_gcd(a, p_deriv(a))
    return p_monic(p_div_exact(a, g)) if len(g) > 1 else p_monic(a)


def sturm_real_root_count(g):
    """Number of distinct real roots of g (exact, Sturm's theorem)."""
    seq = [g, p_deriv(g)]
    while len(seq[-1]) > 1:
        r = p_rem(seq[-2], seq[-1])
        if not r:
            break
        seq.append([-x for x in r])

    def variations(signs):
        signs = [s for s in signs if s]
        return sum(1 for u, v in zip(signs, signs[1:]) if u != v)

    at_pos = [sgn(q[-1]) for q in seq]
    at_neg = [sgn(q[-1]) * (-1) ** (len(q) - 1) for q in seq]
    return variations(at_neg) - variations(at_pos)


def mpf_to_fraction(x):
    s, man, exp, _ = x._mpf_
    if not man:
        return Fraction(0)
    v = Fraction(man) * (Fraction(2) ** exp)
    return -v if s else v


def fraction_to_mpf(x):
    return mpf(x.numerator) / x.denominator


# --------------------------------------------------------------------------------------
# The reference: first falling root in (0, +inf), exact for the given coefficients
# --------------------------------------------------------------------------------------

PRECISIONS = (60, 120, 240, 480)


class Entry:
    """A falling root: exact bracket [lo, hi] (dyadic Fractions) that contains exactly
    one root of p, with p(lo) > 0 > p(hi); `value` is a point of the bracket and
    `nearest` the f64 closest to the root."""

    __slots__ = ("value", "lo", "hi", "nearest")

    def __init__(self, value, lo, hi, nearest):
        self.value, self.lo, self.hi, self.nearest = value, lo, hi, nearest


ZERO_ENTRY = Entry(Fraction(0), Fraction(0), Fraction(0), 0.0)


def _bracket(g, reals):
    """Exact disjoint brackets around the approximate real roots `reals` (mpf), each
    verified by a sign change of g, or None when the approximations are not good
    enough (the caller then retries at higher precision)."""
    rel = mpf(2) ** (-int(mp.prec * 0.65))
    out = []
    for r in sorted(reals):
        e = abs(r) * rel
        lo, hi = mpf_to_fraction(r - e), mpf_to_fraction(r + e)
        if lo <= 0 <= hi:
            return None
        slo, shi = sgn(p_eval(g, lo)), sgn(p_eval(g, hi))
        if slo == 0 or shi == 0 or slo == shi:
            return None
        if out and out[-1][1] >= lo:
            return None
        out.append((lo, hi, mpf_to_fraction(r)))
    return out


def _newton(cs, x):
    """Newton iterations on the polynomial with mpf coefficients cs (high first)."""
    tol = mpf(2) ** (-(mp.prec - 8))
    for _ in range(40):
        v = d = mpf(0)
        for c in cs:
            d = d * x + v
            v = v * x + c
        if not d:
            return x
        dx = v / d
        x -= dx
        if abs(dx) <= tol * abs(x):
            return x
    return x


def isolate_real_roots(g, hints=None, want_all=False):
    """All distinct real roots of the square-free g (g(0) != 0) as disjoint exact
    brackets [(lo, hi, approx)], sorted; each bracket holds exactly one root and g
    changes sign across it (n brackets with sign changes for the n real roots that
    Sturm's theorem counts, so nothing is missed).  Returns (brackets, all complex
    roots or None; with want_all they are computed even without real roots).

    Approximations come from mpmath.polyroots (retrying at higher precision).  For a
    perturbed polynomial, `hints` = (real roots, all roots) of the unperturbed one are
    used first: Newton's method from the real roots, then polyroots started from all
    roots; the exact bracket check makes every path equally rigorous."""
    n_real = sturm_real_root_count(g)
    if n_real == 0 and not (want_all and len(g) > 2):
        return [], None
    inits = [None]
    if hints is not None:
        h_reals, h_all = hints
        if len(h_reals) == n_real:
            with mp.workdps(PRECISIONS[0]):
                cs = [fraction_to_mpf(x) for x in reversed(g)]
                out = _bracket(g, [_newton(cs, fraction_to_mpf(h)) for h in h_reals])
                if out is not None:
                    return out, None
        if h_all is not None and len(h_all) == len(g) - 1:
            inits = [h_all, None]
    last_err = None
    for dps in PRECISIONS:
        for init in inits:
            with mp.workdps(dps):
                coeffs = [fraction_to_mpf(x) for x in reversed(g)]
                try:
                    if len(coeffs) == 2:
                        roots = [-coeffs[1] / coeffs[0]]
                    else:
                        roots = mp.polyroots(coeffs, maxsteps=50 + dps, extraprec=mp.prec,
                                             roots_init=init)
                except mpmath.libmp.NoConvergence as e:  # retry with more precision
                    last_err = e
                    continue
                roots = sorted(roots, key=lambda z: abs(mpmath.im(z)) / (1 + abs(z)))
                if len(roots) > n_real:
                    # the first non-real root must be clearly non-real
                    z = roots[n_real]
                    if abs(mpmath.im(z)) < mpf(2) ** (-int(mp.prec * 0.5)) * (1 + abs(z)):
                        last_err = "ambiguous imaginary part"
                        continue
                # real parts, polished by Newton (cheap, real arithmetic) when possible
                reals = [mpmath.re(z) for z in roots[:n_real]]
                out = _bracket(g, [_newton(coeffs, r) for r in reals]) or _bracket(g, reals)
                if out is not None:
                    return out, roots
                last_err = "bracket check failed"
    raise RuntimeError("root isolation failed for %r: %s" % (g, last_err))


def nearest_double(p, lo, hi):
    """Closest f64 to the unique root of p in [lo, hi] where p(lo) > 0 > p(hi)
    (bisection fallback when the bracket straddles a rounding boundary)."""
    for _ in range(400):
        flo, fhi = float(lo), float(hi)  # Fraction -> float is correctly rounded
        if flo == fhi:
            return flo
        m = (lo + hi) / 2
        v = p_eval(p, m)
        if v == 0:
            return float(m)
        if v > 0:
            lo = m
        else:
            hi = m
    raise RuntimeError("nearest_double: no convergence")


def first_entry(c, hints=None):
    """Earliest entry of p (coefficients c as Fractions, low first) over (0, +inf):
    (ZERO_ENTRY (rule 1), an Entry, or None; approximations of the distinct non-zero
    real roots of p, usable as `hints` for a nearby polynomial)."""
    p = p_trim(c)
    if not p:
        return None, None  # identically zero
    if p[0] <= 0:
        for x in p[1:]:
            if x != 0:
                if x < 0:
                    return ZERO_ENTRY, None
                break
    k = 0
    while p[k] == 0:
        k += 1
    q = p[k:]  # p = t^k q, same sign as p for t > 0, q(0) != 0
    if len(q) == 1:
        return None, None
    g = squarefree(q)
    brackets, all_roots = isolate_real_roots(g, hints, want_all=hints is None)
    approxs = ([b[2] for b in brackets], all_roots)
    for lo, hi, approx in brackets:
        if lo < 0:
            continue
        # lo/hi lie strictly between consecutive roots: signs just before/after
        before, after = sgn(p_eval(q, lo)), sgn(p_eval(q, hi))
        if before > 0 and after < 0:
            verify_entry(p, lo, hi, approx)
            return Entry(approx, lo, hi, nearest_double(q, lo, hi)), approxs
    return None, approxs


def verify_entry(p, lo, hi, r):
    """Independent check in mp arithmetic: p(r) ~ 0 relative to the terms' size and
    p changes sign + -> - across the bracket."""
    with mp.workdps(80):
        rm = fraction_to_mpf(r)
        cs = [fraction_to_mpf(x) for x in p]
        val = mpmath.polyval(cs[::-1], rm)
        scale = sum(abs(x) * abs(rm) ** i for i, x in enumerate(cs))
        if not abs(val) <= mpf(10) ** -30 * scale:
            raise RuntimeError("verification failed: |p(r)| too large at r=%s" % rm)
        if not (mpmath.polyval(cs[::-1], fraction_to_mpf(lo)) > 0 >
                mpmath.polyval(cs[::-1], fraction_to_mpf(hi))):
            # exact check is authoritative; mp evaluation may round to 0 for
            # high-multiplicity roots, so only fail on an actual sign contradiction
            if sgn(p_eval(p, lo)) <= 0 or sgn(p_eval(p, hi)) >= 0:
                raise RuntimeError("verification failed: no sign change at r=%s" % rm)


def entry_within(entry, p, h):
    """Answer for horizon h (Fraction, or None for infinite) given the first entry
    over (0, +inf)."""
    if entry is None:
        return None
    if entry is ZERO_ENTRY or h is None:
        return entry
    if entry.hi <= h:
        return entry
    if entry.lo > h:
        return None
    # h inside the bracket: the root is <= h iff p(h) <= 0 (p(lo) > 0 > p(hi))
    return entry if p_eval(p, h) <= 0 else None


# --------------------------------------------------------------------------------------
# Well-posedness
# --------------------------------------------------------------------------------------


def sign_patterns(c):
    """All 2^k sign patterns over the k non-zero coefficients (zero coefficients
    stay zero under a relative perturbation).  This contains the all-+ and all--
    patterns and every pattern a random draw could produce."""
    nz = [i for i, x in enumerate(c) if x != 0]
    pats = []
    for bits in range(2 ** len(nz)):
        s = [0] * len(c)
        for j, i in enumerate(nz):
            s[i] = 1 if (bits >> j) & 1 else -1
        pats.append(s)
    return pats


def perturbed(c, pat):
    return [x * (1 + s * PERT) for x, s in zip(c, pat)]


def solve_case(coeffs):
    """Worker: first entry over (0, inf) of the polynomial and of every perturbation."""
    mp.dps = 60
    c = [Fraction(x) for x in coeffs]
    base, hints = first_entry(c)
    trials = [first_entry(perturbed(c, pat), hints)[0] for pat in sign_patterns(c)]
    return base, trials


def judge(coeffs, h, base, trials):
    """entry (float or None), well_posed (bool), condition (float) for horizon h."""
    c = [Fraction(x) for x in coeffs]
    hf = None if math.isinf(h) else Fraction(h)
    e = entry_within(base, c, hf)
    cond = 0.0
    ok = True
    for pat, t in zip(sign_patterns(c), trials):
        et = entry_within(t, perturbed(c, pat), hf)
        if (e is None) != (et is None):
            return (None if e is None else e.nearest), False, math.inf
        if e is None:
            continue
        diff = abs(et.value - e.value)
        if e.value != 0:
            cond = max(cond, float(diff / e.value))
        elif diff != 0:
            cond = math.inf  # cannot happen: rule 1 is sign-invariant
        if not (diff <= REL_TOL * e.value or diff <= ABS_TOL):
            ok = False
    return (None if e is None else e.nearest), ok, cond


# --------------------------------------------------------------------------------------
# Families (built in f64 from their parameters)
# --------------------------------------------------------------------------------------


def loguni(rng, lo, hi):
    return math.exp(rng.uniform(math.log(lo), math.log(hi)))


def fmul(a, b):
    out = [0.0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] += x * y
    return out


def build(factors, s):
    """s * prod(factors), each factor a low-first f64 coefficient list; padded to 5."""
    p = [s]
    for f in factors:
        p = fmul(p, f)
    p = p + [0.0] * (5 - len(p))
    assert len(p) == 5
    return p


def lin(r):
    return [-r, 1.0]


def cpair(m, d):
    return [m * m + d * d, -2.0 * m, 1.0]


def separated_logs(rng, n, lo, hi, ratio):
    """n sorted values log-uniform in [lo, hi] with consecutive ratio >= ratio."""
    g = math.log(ratio)
    span = math.log(hi) - math.log(lo) - (n - 1) * g
    us = sorted(rng.uniform(0.0, span) for _ in range(n))
    return [math.exp(math.log(lo) + u + i * g) for i, u in enumerate(us)]


def g6(x):
    return "%.6g" % x


def fam_well_separated(rng):
    roots = separated_logs(rng, 4, 1e-4, 10.0, 1.5)
    neg = []
    if rng.random() < 0.3:
        neg = rng.sample(range(4), rng.choice([1, 2]))
        for i in neg:
            roots[i] = -roots[i]
    s = loguni(rng, 1e-6, 1e6)
    note = "roots=" + ";".join(g6(r) for r in roots) + " s=" + g6(s)
    return build([lin(r) for r in roots], s), note, {"roots": roots}


def fam_clustered(rng):
    center = loguni(rng, 1e-4, 10.0)
    spread = loguni(rng, 1e-5, 1e-2)
    roots = sorted(center * (1.0 + spread * (rng.random() - 0.5)) for _ in range(4))
    s = loguni(rng, 1e-6, 1e6)
    note = "center=%s spread=%s s=%s" % (g6(center), g6(spread), g6(s))
    return build([lin(r) for r in roots], s), note, {"roots": roots}


def fam_near_double(rng):
    r = loguni(rng, 1e-4, 10.0)
    delta = loguni(rng, 1e-12, 1e-3)
    r2 = r * (1.0 + delta)
    kind = rng.choice(["far_above", "far_negative", "complex"])
    if kind == "far_above":
        r3 = r * loguni(rng, 2.0, 100.0)
        r4 = r3 * loguni(rng, 1.5, 20.0)
        extra = [lin(r3), lin(r4)]
        desc = "others=%s;%s" % (g6(r3), g6(r4))
        roots = [r, r2, r3, r4]
    elif kind == "far_negative":
        r3 = -r * loguni(rng, 0.01, 100.0)
        r4 = -r * loguni(rng, 0.01, 100.0)
        extra = [lin(r3), lin(r4)]
        desc = "others=%s;%s" % (g6(r3), g6(r4))
        roots = [r, r2, r3, r4]
    else:
        while True:
            m = r * loguni(rng, 0.01, 100.0) * rng.choice([1.0, -1.0])
            if abs(m / r - 1.0) >= 0.5:
                break
        d = abs(m) * loguni(rng, 0.05, 2.0)
        extra = [cpair(m, d)]
        desc = "pair=%s+-%si" % (g6(m), g6(d))
        roots = [r, r2]
    s = loguni(rng, 1e-6, 1e6)
    note = "r=%s delta=%s %s %s s=%s" % (g6(r), "%.3g" % delta, kind, desc, g6(s))
    return build([lin(r), lin(r2)] + extra, s), note, {"roots": roots, "delta": delta}


def fam_complex_pair(rng):
    r1, r2 = separated_logs(rng, 2, 1e-4, 10.0, 1.5)
    ratio = loguni(rng, 1e-6, 1e-2)
    if rng.random() < 0.25:
        place = "solo"  # real roots negative: the near-tangency is the only feature
        r1, r2 = -r2, -r1
        m = loguni(rng, 1e-4, 10.0)
    else:
        place = rng.choice(["before", "between", "after"])
        if place == "before":
            m = r1 / loguni(rng, 1.2, 10.0)
        elif place == "between":
            m = math.exp(rng.uniform(0.1, 0.9) * (math.log(r2) - math.log(r1)) + math.log(r1))
        else:
            m = r2 * loguni(rng, 1.2, 10.0)
    d = m * ratio
    s = loguni(rng, 1e-6, 1e6)
    note = "reals=%s;%s pair=%s d/m=%s %s s=%s" % (
        g6(r1), g6(r2), g6(m), "%.3g" % ratio, place, g6(s))
    return (build([lin(r1), lin(r2), cpair(m, d)], s), note,
            {"roots": [r1, r2], "key": m})


def fam_tiny_leading(rng):
    r1, r2 = separated_logs(rng, 2, 1e-4, 10.0, 1.5)
    eps = loguni(rng, 1e-20, 1e-10) * rng.choice([1.0, -1.0])
    u = rng.random()
    if u < 0.4:
        b = loguni(rng, 0.1, 10.0)
    elif u < 0.7:
        b = -loguni(rng, 0.1, 10.0)  # adds a real root near 1/|b| in [0.1, 10]
    else:
        b = 0.0
    s = loguni(rng, 1e-6, 1e6)
    note = "reals=%s;%s eps=%s b=%s s=%s" % (g6(r1), g6(r2), "%.3g" % eps, g6(b), g6(s))
    roots = [r1, r2]
    if b < 0:
        roots.append(-1.0 / b)
    return build([lin(r1), lin(r2), [1.0, b, eps]], s), note, {"roots": roots}


def fam_billiards(rng):
    D = D_BALL
    near = rng.random() < 0.25
    th = rng.uniform(0.0, 2.0 * math.pi)
    if near:
        gap = rng.choice([1.0, -1.0]) * loguni(rng, 1e-13, 1e-9)
    else:
        gap = loguni(rng, 1e-6, 2.0 - D)
    dist = D + gap
    ux, uy = math.cos(th), math.sin(th)
    C = (dist * ux, dist * uy)
    speed = loguni(rng, 1e-3, 10.0)
    if near:
        aim = rng.choice(["in", "out"])
        phi = rng.uniform(-1.2, 1.2)
        base = (-ux, -uy) if aim == "in" else (ux, uy)
    else:
        if rng.random() < 0.6:
            aim = "aimed"
            phi = rng.uniform(-1.0, 1.0) * 1.3 * math.asin(min(1.0, D / dist))
        else:
            aim = "random"
            phi = rng.uniform(-math.pi, math.pi)
        base = (-ux, -uy)
    cp, sp = math.cos(phi), math.sin(phi)
    B = (speed * (cp * base[0] - sp * base[1]), speed * (sp * base[0] + cp * base[1]))
    if rng.random() < 0.1:
        amag = 0.0
        A = (0.0, 0.0)
    else:
        amag = rng.uniform(0.0, 1.0)
        ta = rng.uniform(0.0, 2.0 * math.pi)
        A = (amag * math.cos(ta), amag * math.sin(ta))
    c4 = A[0] * A[0] + A[1] * A[1]
    c3 = 2.0 * (A[0] * B[0] + A[1] * B[1])
    c2 = (B[0] * B[0] + B[1] * B[1]) + 2.0 * (A[0] * C[0] + A[1] * C[1])
    c1 = 2.0 * (B[0] * C[0] + B[1] * C[1])
    c0 = (C[0] * C[0] + C[1] * C[1]) - D * D
    note = "gap=%s speed=%s accel=%s %s" % ("%.3g" % gap, g6(speed), g6(amag), aim)
    return [c0, c1, c2, c3, c4], note, {}


FAMILIES = [
    ("well_separated", fam_well_separated, (1e-3, 20.0)),
    ("clustered", fam_clustered, (1e-3, 20.0)),
    ("near_double", fam_near_double, (1e-3, 20.0)),
    ("complex_pair", fam_complex_pair, (1e-3, 20.0)),
    ("tiny_leading", fam_tiny_leading, (1e-3, 20.0)),
    ("billiards", fam_billiards, (0.01, 10.0)),
]


def choose_horizon(rng, e, lohi, key=None):
    """Horizon given the exact first entry e over (0, inf) (a float, 0.0 or None):
    80% of the time above e (a quarter of those within 1e-9..1e-3 relative above),
    otherwise below it (a quarter of those just below)."""
    lo, hi = lohi
    if e is None or e == 0.0 or e >= hi:
        if key is not None and 0 < key < hi and rng.random() < 0.8:
            return loguni(rng, key, hi)  # put the near-tangency inside the horizon
        return loguni(rng, lo, hi)
    if rng.random() < 0.8:
        if rng.random() < 0.25:
            return e * (1.0 + loguni(rng, 1e-9, 1e-3))
        return loguni(rng, e, hi)
    if rng.random() < 0.25:
        return e * (1.0 - loguni(rng, 1e-9, 1e-3))
    return e * loguni(rng, 1e-2, 0.999)


# --------------------------------------------------------------------------------------
# Driver
# --------------------------------------------------------------------------------------


def fmt(x):
    return repr(float(x))


def read_captured(path):
    rows = []
    if not path or not os.path.exists(path):
        return rows
    with open(path, newline="") as f:
        for rec in csv.DictReader(f):
            fam = rec["family"].strip()
            cs = [float(rec["c%d" % i]) for i in range(5)]
            h = float(rec["horizon"])
            if not all(math.isfinite(x) for x in cs) or not h > 0:
                raise SystemExit("captured row with non-finite coefficient or bad "
                                 "horizon: %r" % rec)
            note = (rec.get("note") or "captured").replace(",", ";").strip()
            rows.append((fam, cs, h, note))
    return rows


def generate(per_family):
    """Phase 1 (sequential, seeded): all synthetic polynomials, in output order."""
    rng = random.Random(SEED)
    cases = []
    for fam, fn, lohi in FAMILIES:
        for i in range(per_family):
            coeffs, note, params = fn(rng)
            for x in coeffs:
                if not math.isfinite(x):
                    raise RuntimeError("non-finite coefficient in %s" % fam)
            cases.append({"family": fam, "id": i, "coeffs": coeffs, "note": note,
                          "params": params, "lohi": lohi, "horizon": None})
    return rng, cases


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--per-family", type=int, default=400)
    ap.add_argument("--captured", default=os.path.join(HERE, "captured.csv"))
    ap.add_argument("--out", default=os.path.join(HERE, "cases.csv"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args(argv)

    t0 = time.time()
    rng, cases = generate(args.per_family)
    counters = {}
    for fam, cs, h, note in read_captured(args.captured):
        counters[fam] = counters.get(fam, 0)
        cases.append({"family": fam, "id": counters[fam], "coeffs": cs, "note": note,
                      "params": {}, "lohi": None, "horizon": h})
        counters[fam] += 1

    # Phase 2 (parallel, pure): exact first entries of every polynomial and perturbation.
    jobs = [c["coeffs"] for c in cases]
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            results = pool.map(solve_case, jobs, chunksize=8)
    else:
        results = [solve_case(j) for j in jobs]

    # Phase 3 (sequential, seeded): horizons, then answers for those horizons.
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(COLUMNS)
    stats = {}
    for case, (base, trials) in zip(cases, results):
        if case["horizon"] is None:
            e_inf = None if base is None else base.nearest
            case["horizon"] = choose_horizon(rng, e_inf, case["lohi"],
                                             case["params"].get("key"))
        h = case["horizon"]
        entry, ok, cond = judge(case["coeffs"], h, base, trials)
        case["entry"] = entry
        note = case["note"].replace(",", ";")
        w.writerow([case["family"], case["id"]] + [fmt(x) for x in case["coeffs"]] +
                   [fmt(h), "" if entry is None else fmt(entry),
                    "true" if ok else "false", fmt(cond), note])
        st = stats.setdefault(case["family"], [0, 0, 0])
        st[0] += 1
        st[1] += entry is not None
        st[2] += ok
    data = out.getvalue()
    with open(args.out, "w", newline="") as f:
        f.write(data)

    print("%-24s %7s %7s %11s" % ("family", "cases", "entry", "well_posed"))
    for fam, (n, ne, nw) in stats.items():
        print("%-24s %7d %7d %11d" % (fam, n, ne, nw))
    print("wrote %s (%d rows, %d bytes) in %.1f s" % (
        args.out, len(cases), len(data), time.time() - t0))
    return cases


if __name__ == "__main__":
    main()
