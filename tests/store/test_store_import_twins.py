"""Telling an incoming game from those already there (issue 30), and saying what differs.

A refusal said "...winner 1, but it says winner 1" when what was wrong was
the status.
"""

import json

from tests.kit.importkit import RECORDS, run_import


def test_a_record_whose_status_contradicts_its_winning_events_says_so(tmp_path, capsys):
    record = json.loads((RECORDS / "two_players.json").read_text())
    from engine import Record

    winner = Record.from_json(record).replay().winner
    record.update(status="abandoned", winner=winner)
    (tmp_path / "g.json").write_text(json.dumps(record))
    code, out, err = run_import(capsys, tmp_path / "g.json", tmp_path / "card")
    assert code == 2 and err == [f"cantstop-box import: g.json: refused: its events end in a win (player {winner}), "
                                 "but it says it was abandoned"]
    record.update(status="finished", winner=1 - winner)
    (tmp_path / "g.json").write_text(json.dumps(record))
    code, out, err = run_import(capsys, tmp_path / "g.json", tmp_path / "card")
    assert err == [f"cantstop-box import: g.json: refused: its events make player {winner} the winner, but it says "
                   f"winner {1 - winner}"]
