"""The web page's own words (the box's words come from :mod:`firmware.words`), in the box's three languages.

The page says what the box says wherever the box has words for it (the
instruction on its screen, the names of the colours, "round 3", a bust);
these are only the words around them that a 0.96-inch screen never needed.
Every language has every key (a test checks it).
"""

from __future__ import annotations

from firmware import i18n

TEXT = {
    "en": {
        "title": "Can't Stop",
        "live": "Live game",
        "history": "History",
        "people": "Statistics",
        "box_on": "Box on",
        "box_off": "The box is off: the game is saved",
        "box_quiet": "No press for a while",
        "box_unknown": "Box",
        "over": "Game over",
        "damaged": "This game is damaged",
        "no_game": "No game yet: start one on the box.",
        "no_store": "No saved games yet.",
        "turn_of": "Turn",
        "dice": "Dice",
        "pairings": "Pairings",
        "chosen": "chosen",
        "illegal": "no move",
        "bust": "Bust if rolled again",
        "screen": "The box says",
        "last": "Last",
        "recap": "Recap",
        "player": "Player",
        "turns": "Turns",
        "busts": "Busts",
        "best": "Best turn",
        "game": "Game",
        "started": "Started",
        "players": "Players",
        "rounds": "Rounds",
        "winner": "Winner",
        "duration": "Duration",
        "status": "Status",
        "status_open": "playing",
        "status_finished": "finished",
        "status_abandoned": "unfinished",
        "status_damaged": "damaged",
        "newer": "Newer",
        "older": "Older",
        "step": "Step",
        "start": "Start",
        "first": "First",
        "prev": "Back",
        "next": "Next",
        "end": "Last",
        "record": "Game record (JSON)",
        "games": "Games",
        "wins": "Wins",
        "win_rate": "Win rate",
        "busts_turn": "Busts a turn",
        "solo": "Solitaire",
        "no_people": "No finished games yet.",
        "not_found": "Not found",
        "not_found_text": "There is no such page or game.",
        "claimed": "claimed",
        "runner": "runner",
        "updated": "Updated",
        "reconnecting": "Reconnecting…",
        "language": "Language",
        "rules": "Rules",
        "columns_to_win": "columns to win",
    },
    "ja": {
        "title": "キャント・ストップ",
        "live": "対局中",
        "history": "履歴",
        "people": "統計",
        "box_on": "ボックス稼働中",
        "box_off": "ボックスは停止中:ゲームは保存済み",
        "box_quiet": "しばらく操作なし",
        "box_unknown": "ボックス",
        "over": "ゲーム終了",
        "damaged": "このゲームは破損しています",
        "no_game": "まだゲームがありません:ボックスで始めてください。",
        "no_store": "保存されたゲームはまだありません。",
        "turn_of": "手番",
        "dice": "サイコロ",
        "pairings": "組み合わせ",
        "chosen": "選択",
        "illegal": "進めない",
        "bust": "もう一度振るとバースト",
        "screen": "ボックスの表示",
        "last": "直前",
        "recap": "振り返り",
        "player": "プレイヤー",
        "turns": "手番数",
        "busts": "バースト",
        "best": "最高の手番",
        "game": "ゲーム",
        "started": "開始",
        "players": "プレイヤー",
        "rounds": "ラウンド",
        "winner": "勝者",
        "duration": "時間",
        "status": "状態",
        "status_open": "対局中",
        "status_finished": "終了",
        "status_abandoned": "中断",
        "status_damaged": "破損",
        "newer": "新しい",
        "older": "古い",
        "step": "手順",
        "start": "開始時",
        "first": "最初",
        "prev": "戻る",
        "next": "次へ",
        "end": "最後",
        "record": "棋譜 (JSON)",
        "games": "ゲーム数",
        "wins": "勝利",
        "win_rate": "勝率",
        "busts_turn": "手番あたりバースト",
        "solo": "ひとり練習",
        "no_people": "終了したゲームはまだありません。",
        "not_found": "見つかりません",
        "not_found_text": "そのページやゲームはありません。",
        "claimed": "確保",
        "runner": "ランナー",
        "updated": "更新",
        "reconnecting": "再接続中…",
        "language": "言語",
        "rules": "ルール",
        "columns_to_win": "列で勝利",
    },
    "ko": {
        "title": "캔트 스톱",
        "live": "진행 중인 게임",
        "history": "기록",
        "people": "통계",
        "box_on": "박스 작동 중",
        "box_off": "박스가 꺼져 있습니다: 게임은 저장됨",
        "box_quiet": "한동안 입력 없음",
        "box_unknown": "박스",
        "over": "게임 종료",
        "damaged": "이 게임은 손상되었습니다",
        "no_game": "아직 게임이 없습니다: 박스에서 시작하세요.",
        "no_store": "저장된 게임이 아직 없습니다.",
        "turn_of": "차례",
        "dice": "주사위",
        "pairings": "조합",
        "chosen": "선택",
        "illegal": "이동 불가",
        "bust": "다시 굴리면 버스트",
        "screen": "박스 화면",
        "last": "직전",
        "recap": "요약",
        "player": "플레이어",
        "turns": "차례 수",
        "busts": "버스트",
        "best": "최고의 차례",
        "game": "게임",
        "started": "시작",
        "players": "플레이어",
        "rounds": "라운드",
        "winner": "승자",
        "duration": "시간",
        "status": "상태",
        "status_open": "진행 중",
        "status_finished": "종료",
        "status_abandoned": "중단",
        "status_damaged": "손상",
        "newer": "최신",
        "older": "이전",
        "step": "단계",
        "start": "시작",
        "first": "처음",
        "prev": "이전",
        "next": "다음",
        "end": "마지막",
        "record": "게임 기록 (JSON)",
        "games": "게임 수",
        "wins": "승리",
        "win_rate": "승률",
        "busts_turn": "차례당 버스트",
        "solo": "혼자 연습",
        "no_people": "끝난 게임이 아직 없습니다.",
        "not_found": "찾을 수 없음",
        "not_found_text": "그런 페이지나 게임이 없습니다.",
        "claimed": "차지",
        "runner": "러너",
        "updated": "갱신",
        "reconnecting": "다시 연결 중…",
        "language": "언어",
        "rules": "규칙",
        "columns_to_win": "열 차지로 승리",
    },
}

assert set(TEXT) == set(i18n.LANGUAGES)


def choose(query: str | None, accept: str | None, box: str) -> str:
    """The page's language: ``?lang=``, else the browser's first one the box speaks, else the box's."""
    if query in i18n.LANGUAGES:
        return query
    for lang in accepted(accept or ""):
        if lang in i18n.LANGUAGES:
            return lang
    return box


def accepted(header: str) -> list[str]:
    """An Accept-Language header's primary languages, most wanted first ("ko-KR,ko;q=0.9,en;q=0.8")."""
    found = []
    for i, part in enumerate(header.split(",")[:20]):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        params = params.strip()
        if params.startswith("q="):
            try:
                q = float(params[2:])
            except ValueError:
                q = 0.0
        lang = tag.strip().split("-")[0].lower()
        if lang and q > 0:
            found.append((-q, i, lang))
    return [lang for _, _, lang in sorted(found)]
