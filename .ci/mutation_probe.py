#!/usr/bin/env python3
"""Inject small faults into one module and count how many its tests kill.

    python .ci/mutation_probe.py agentops/<name>.py tests/test_<name>.py [more tests...]
        [--max N] [--seed S] [--timeout-factor F] [--lines A-B[,C-D...]]

Each mutant flips one thing: a comparison (< <=, == !=, in / not in, is / is not),
an arithmetic operator (+ -, * //), `and`/`or`, a `not`, an `if`/`while` test, an
integer constant (n -> n + 1), or a boolean constant. Docstrings and `_self_check`
are left alone. Every mutant runs in a scratch copy of the project, never in the
working tree, so parallel work is undisturbed. A mutant that makes the tests fail
or run past the timeout is killed; one that passes survives and is listed.
`--lines` keeps only mutants on those lines (say, the lines a change touched).
This is a developer tool, not part of the package.
"""

from __future__ import annotations

import argparse
import ast
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

SWAP_COMPARE: dict[type, type] = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
SWAP_BINOP: dict[type, type] = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.FloorDiv,
    ast.FloorDiv: ast.Mult,
    ast.Div: ast.Mult,
    ast.Mod: ast.FloorDiv,
}

Mutation = tuple[int, str, ast.AST, Callable[[ast.AST], ast.AST]]  # line, what, node, apply


def _protected(tree: ast.Module) -> set[int]:
    """ids of nodes not to mutate: docstrings and the self-check."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == "_self_check":
            skip.update(id(n) for n in ast.walk(node))
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            first = body[0].value
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                skip.add(id(first))
    return skip


def mutations(tree: ast.Module) -> list[Mutation]:
    """Every single-fault mutation of `tree`, in a deterministic order."""
    skip = _protected(tree)
    found: list[Mutation] = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Compare):
            for i, op in enumerate(node.ops):
                if type(op) in SWAP_COMPARE:
                    found.append(
                        (
                            line,
                            f"{type(op).__name__} -> {SWAP_COMPARE[type(op)].__name__}",
                            node,
                            _set_compare(i),
                        )
                    )
        elif isinstance(node, ast.BinOp) and type(node.op) in SWAP_BINOP:
            found.append(
                (
                    line,
                    f"{type(node.op).__name__} -> {SWAP_BINOP[type(node.op)].__name__}",
                    node,
                    _set_binop,
                )
            )
        elif isinstance(node, ast.BoolOp):
            found.append((line, "and <-> or", node, _flip_boolop))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            found.append((line, "drop not", node, lambda n: n.operand))  # type: ignore[attr-defined]
        elif isinstance(node, (ast.If, ast.While, ast.IfExp)):
            found.append((line, f"negate {type(node).__name__} test", node, _negate_test))
        elif isinstance(node, ast.Constant):
            if isinstance(node.value, bool):
                found.append(
                    (
                        line,
                        f"{node.value} -> {not node.value}",
                        node,
                        lambda n: ast.Constant(not n.value),
                    )
                )  # type: ignore[attr-defined]
            elif isinstance(node.value, int):
                found.append(
                    (
                        line,
                        f"{node.value} -> {node.value + 1}",
                        node,
                        lambda n: ast.Constant(n.value + 1),
                    )
                )  # type: ignore[attr-defined]
    return found


def _set_compare(i: int) -> Callable[[ast.AST], ast.AST]:
    def apply(node: ast.AST) -> ast.AST:
        assert isinstance(node, ast.Compare)
        node.ops[i] = SWAP_COMPARE[type(node.ops[i])]()
        return node

    return apply


def _set_binop(node: ast.AST) -> ast.AST:
    assert isinstance(node, ast.BinOp)
    node.op = SWAP_BINOP[type(node.op)]()
    return node


def _flip_boolop(node: ast.AST) -> ast.AST:
    assert isinstance(node, ast.BoolOp)
    node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
    return node


def _negate_test(node: ast.AST) -> ast.AST:
    assert isinstance(node, (ast.If, ast.While, ast.IfExp))
    node.test = ast.UnaryOp(ast.Not(), node.test)
    return node


def mutant_source(source: str, index: int) -> str:
    """`source` with the index-th mutation applied."""
    tree = ast.parse(source)
    _line, _desc, target, apply = mutations(tree)[index]

    class Replace(ast.NodeTransformer):
        def generic_visit(self, node: ast.AST) -> ast.AST:
            return apply(node) if node is target else super().generic_visit(node)

    return ast.unparse(ast.fix_missing_locations(Replace().visit(tree)))


def run_tests(root: str, tests: list[str], timeout: float) -> tuple[bool, float]:
    """(passed, seconds) for the tests in the scratch copy `root`."""
    env = dict(
        os.environ, PYTHONPATH=root, HYPOTHESIS_PROFILE="mutation", PYTHONDONTWRITEBYTECODE="1"
    )
    start = time.perf_counter()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *tests],
            cwd=root,
            env=env,
            capture_output=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return False, time.perf_counter() - start
    return done.returncode == 0, time.perf_counter() - start


def _line_ranges(text: str) -> list[tuple[int, int]]:
    """ "120-160,300" as [(120, 160), (300, 300)]."""
    ranges = []
    for part in text.split(","):
        first, _, last = part.partition("-")
        ranges.append((int(first), int(last or first)))
    return ranges


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("module")
    parser.add_argument("tests", nargs="+")
    parser.add_argument("--max", type=int, default=0, help="sample at most N mutants")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timeout-factor", type=float, default=4.0)
    parser.add_argument(
        "--lines",
        type=_line_ranges,
        default=None,
        help="only mutants on these lines, e.g. 120-160,300-310",
    )
    args = parser.parse_args()
    with open(args.module, encoding="utf-8") as handle:
        source = handle.read()
    found = mutations(ast.parse(source))
    chosen = [
        i
        for i, (line, *_) in enumerate(found)
        if args.lines is None or any(a <= line <= b for a, b in args.lines)
    ]
    if args.max and args.max < len(chosen):
        chosen = sorted(random.Random(args.seed).sample(chosen, args.max))
    scratch = tempfile.mkdtemp(prefix="mutation-")
    try:
        for part in ("agentops", "tests"):
            shutil.copytree(
                part,
                os.path.join(scratch, part),
                ignore=shutil.ignore_patterns("__pycache__", ".hypothesis"),
            )
        for extra in ("pyproject.toml",):
            if os.path.exists(extra):
                shutil.copy(extra, scratch)
        target = os.path.join(scratch, args.module)
        ok, base = run_tests(scratch, args.tests, timeout=600)
        if not ok:
            print("the tests fail on the unmutated module; fix them first")
            return 2
        survivors = []
        for n, index in enumerate(chosen, 1):
            with open(target, "w", encoding="utf-8") as handle:
                handle.write(mutant_source(source, index))
            limit = max(10.0, base * args.timeout_factor)
            passed, _ = run_tests(scratch, args.tests, timeout=limit)
            line, desc, _node, _apply = found[index]
            if passed:
                survivors.append((line, desc))
            print(
                f"[{n}/{len(chosen)}] line {line}: {desc}: {'SURVIVED' if passed else 'killed'}",
                flush=True,
            )
        killed = len(chosen) - len(survivors)
        share = 100.0 * killed / max(1, len(chosen))
        print(
            f"\nmutation score: {killed}/{len(chosen)} killed ({share:.1f}%) "
            f"of {len(found)} mutants in {args.module}"
        )
        for line, desc in survivors:
            print(f"  survived: line {line}: {desc}")
        return 0
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
