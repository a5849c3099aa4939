"""The short texts the renderer makes from a view's numbers: a chance, a runner's step, a pairing."""

from __future__ import annotations

from ..views import Option, Step


def percent(p: float) -> str:
    """An exact chance as a short percentage: "23.9%", never "0.0%" for a chance above zero."""
    if p <= 0:
        return "0%"
    if p >= 1:
        return "100%"
    if p < 0.001:
        return "<0.1%"
    if p > 0.999:
        return ">99.9%"
    return f"{p * 100:.1f}%"


def step_text(step: Step) -> str:
    """The physical instruction for one runner, without its column: "new runner on 1"."""
    if step.skipped:  # speedy: say which squares it jumped, or the box looks wrong
        verb = "new on" if step.new else "up to"
        return f"{verb} {step.step} past {ranges(step.skipped)}"
    if step.top:
        return f"new on {step.step}: TOP!" if step.new else f"up to {step.step}: TOP!"
    return f"new runner on {step.step}" if step.new else f"runner up to {step.step}"


def ranges(squares: tuple[int, ...]) -> str:
    """(4, 5, 6, 9) -> "4-6 9": runs of squares in few characters."""
    out, run = [], [squares[0]]
    for sq in squares[1:]:
        if sq == run[-1] + 1:
            run.append(sq)
        else:
            out.append(run)
            run = [sq]
    out.append(run)
    return " ".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else f"{r[0]}" for r in out)


def option_sums_text(option: Option, chosen: str | None = None) -> str:
    """What the option moves, for the big line of its cell: "5+9", "7x2", "7", "2/11", "--"."""
    a, b = option.sums
    if chosen and ":" in chosen and chosen.split(":", 1)[0] == option.label:
        return chosen.split(":", 1)[1]
    if option.effect == "both":
        return f"{a}x2" if a == b else f"{a}+{b}"
    if option.effect == "first":
        return str(a)
    if option.effect == "second":
        return str(b)
    if option.effect == "pick":
        return f"{a}/{b}"
    return "--"
