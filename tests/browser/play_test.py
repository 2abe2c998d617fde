"""Real-browser test of `koma play`: Chromium (headless, driven through WebDriver by Selenium)
plays games against the engine by clicking the page, for Hand Shogi, Shoko Shogi and Ko Shogi.

Each game starts from a position chosen so that the moves the page must handle are on the
board (a drop and a forced promotion in Hand Shogi; a Lion double capture in Shoko Shogi; a
shot, a multi-leg capture and a promotion choice in Ko Shogi) and a few plies before the
variant's maximum length, so that every game is played to its end: the person's moves are
entered by clicks only (squares, hand pieces, the promotion dialog), the engine answers
through the page, and the game ends by the rules (a win, or a draw at the maximum length).

After every move the test checks the page against koma itself: the position text the page
shows must equal `koma moves --show-position` for the moves played so far, every square of
the drawn board and every hand must show what that position text says, and the legal moves
must be those `koma moves` lists. Pieces are drawn by their kind's label (a promoted form by
its own kind's).

After each game the test steps back through it (buttons, arrow keys, clicks on the move list)
and checks every position shown against koma; saves the record with the Save button (a real
download) and loads the file back with Load; opens the piece panel by pointing at board pieces
and picking kinds from the list, and checks the move diagram against the piece reference.
Hand Shogi also checks the check marks and the person's clock. Screenshots of the three games
at their end, of a review and of the piece panel are written to the output folder.

Usage: play_test.py KOMA_BINARY OUTPUT_DIR
"""

import json
import os
import random
import re
import socket
import subprocess
import sys
import time
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

KOMA, OUT = sys.argv[1], sys.argv[2]
CHROMIUM = os.environ.get("KOMA_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("KOMA_CHROMEDRIVER", "/usr/bin/chromedriver")

# Ko Shogi, Black to move: shots, multi-leg captures and promotion choices are each open to
# two or more pieces.
KO_POSITION = (
    "(ag)(tp)(en)(cs)(st)(cm)(ai)(ac)(so)g(cl)(ac)1(sw)(ai)(cs)(en)(ca)(ag)/(rg)1(WG)(qm)1(mi)("
    "lb)(xb)(sn)(mt)(dr)(sn)(cn)(st)1(qm)(lb)(ce)(rg)/(el)(ce)1(lb)(el)2(sw)3(lb)1(mi)1(sm)1(cn"
    ")(el)/2p1(cm)2p(cm)(bn)(fc)p1p1(el)(cm)(xb)1/(pu)1(xb)1(cm)p(cm)(cn)2(pu)1(xb)3(su)(pu)1/5"
    "(sh)1(sh)9(cu)1/9(vg)(PCU)(pcu)(sh)1(sh)1(sh)2/3(sh)5(cm)6(CA)2/14(ch)1(PU)2/7(CH)8(CH)(CM"
    ")1/(ca)1(CH)5(ch)10/3(el)15/4(SH)1(CM)5(pcu)1(SH)4/3(SH)3(SH)1(SH)5(SH)3/(CM)1(SU)1(CH)P1("
    "pcu)(CM)(PU)6(SU)P1/(CN)(XB)1P(LB)(CM)2(CH)(EL)(FC)(AC)(MI)P2(CN)(XB)(CM)/(EL)3(EL)(AI)1(L"
    "B)(EL)1(EL)1(XB)(CN)1(LB)1(QM)(EL)/(RG)(CE)(CS)(QM)2(MI)(SN)(DR)(MT)(LB)(CU)1(AI)(ST)(CS)2"
    "(RG)/(AG)1(EN)(SM)(ST)(CN)(SW)(AC)(CL)G(SO)(BN)1(CM)(SW)1(EN)(TP)(AG) b - 1984"
)
# Shoko Shogi, Black to move, with multi-leg captures open to its Lion and Lion Dog.
SHOKO_POSITION = (
    "ltcg(bt)(ds)k(dv)(bt)gctl/(vc)(hm)(ps)(fy)(ew)(ph)(rd)(ky)(ew)(fh)(ok)(tg)(vc)/(sm)rb(dk)"
    "(ve)2(ln)(vf)(dh)br(sm)/pppppp1pppp1p/3(gb)2p2(gb)1p1/1(LD)4(ld)6/13/9(GB)3/P2(GB)1(LN)7/"
    "1PPPPPPPPPPP+q/(SM)RB(DH)(VF)2Q(VE)(DK)BR(SM)/(VC)(TG)(OK)(FH)(EW)(KY)(RD)(PH)(EW)(FY)(PS)"
    "(HM)(VC)/LTCG(BT)(DV)K(DS)(BT)GCTL b - 984"
)
# Hand Shogi from its start, 16 plies before the maximum length: knights in hand are dropped
# and promote (forced) on reaching the far zone.
HAND_POSITION = (
    "2g1k1g2/2(so)1(pd)1(so)2/3(so)(so)(so)3/9/9/9/3(SO)(SO)(SO)3/2(SO)1(PD)1(SO)2/2G1K1G2 b "
    "T(SH)2S2N2LOHt(sh)2s2n2loh 384"
)


def is_drop(m, s):
    return m["drop"] is not None


def is_multi(m, s):
    return len(m["kills"]) > 0 and not m["shots"]


def is_shot(m, s):
    return len(m["shots"]) > 0


def is_promotion(m, s):
    return m["promotion"] == "+"


def is_choice(m, s):
    """A promotion the person chooses in the dialog: the same clicks also decline it."""
    return m["promotion"] == "+" and any(
        o["clicks"] == m["clicks"] and o["promotion"] != "+" for o in s["legal"]
    )


def knight_drop(m, s):
    """Prepares Hand Shogi's forced promotion: a knight dropped where it can jump on."""
    return m["drop"] == "N" and m["to"][1:] in ("5", "6")


def knight_move(m, s):
    return m["from"] is not None and piece_at(s, m["from"]) == "N"


GAMES = [
    # (variant, start, goals in order: (name, test), moves that prepare an unmet goal)
    ("hand-shogi", HAND_POSITION,
     [("drop", is_drop), ("promotion", is_promotion)], [knight_move, knight_drop]),
    ("shoko-shogi", SHOKO_POSITION, [("multi-leg capture", is_multi)], []),
    ("ko-shogi", KO_POSITION,
     [("shot", is_shot), ("promotion choice", is_choice), ("multi-leg capture", is_multi)], []),
]


def piece_at(s, square):
    for p in s["board"]:
        if p["square"] == square:
            return p["piece"]
    return None


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def api(base, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method="GET" if body is None else "POST")
    with urllib.request.urlopen(req, timeout=120) as r:
        return json.load(r)


def koma_position(variant, start, moves):
    """koma's own word on the position after `moves`: its text and legal moves."""
    out = subprocess.run(
        [KOMA, "moves", "--variant", variant, "--fen", start, "--moves", " ".join(moves),
         "--show-position"],
        check=True, capture_output=True, text=True,
    ).stdout.splitlines()
    return out[0], sorted(out[1:])


TOKEN = re.compile(r"(\d+)|(\+?)(\(([A-Za-z]+)\)|([A-Za-z]))")


def board_of(text, files):
    """Squares of a position text's board field: {square: (ID, colour)}."""
    board = {}
    ranks = text.split()[0].split("/")
    for i, row in enumerate(ranks):
        rank, f = len(ranks) - i, 0
        for m in TOKEN.finditer(row):
            if m.group(1):
                f += int(m.group(1))
                continue
            letters = m.group(4) or m.group(5)
            colour = "black" if letters.isupper() else "white"
            board[f"{chr(97 + f)}{rank}"] = (m.group(2) + letters.upper(), colour)
            f += 1
        assert f == files, f"rank {rank} of {text} has {f} files"
    return board


def hands_of(text):
    """Hands of a position text: {(ID, colour): count}."""
    field = text.split()[2]
    hands = {}
    if field == "-":
        return hands
    for m in re.finditer(r"(\d*)(\+?)(\(([A-Za-z]+)\)|([A-Za-z]))", field):
        letters = m.group(4) or m.group(5)
        colour = "black" if letters.isupper() else "white"
        hands[(m.group(2) + letters.upper(), colour)] = int(m.group(1) or 1)
    return hands


def check_page(driver, s, variant, start, files):
    """The page against koma: position text, drawn board, hands, legal moves."""
    moves = [h["text"] for h in s["history"]]
    text, legal = koma_position(variant, start, moves)
    page_fen = driver.find_element(By.TAG_NAME, "body").get_attribute("data-fen")
    assert page_fen == text, f"{variant}: the page shows\n{page_fen}\nkoma says\n{text}"
    want = board_of(text, files)
    check_board(driver, s, variant, text, files)
    hands = driver.execute_script(
        """
        const out = [];
        for (const h of document.querySelectorAll('[data-hand]'))
          out.push([h.dataset.hand, h.dataset.color, h.textContent]);
        return out;
        """
    )
    drawn_hands = {}
    for hid, colour, label in hands:
        count = re.search(r"(\d+)\s*$", label.replace(hid, "", 1))
        drawn_hands[(hid, colour)] = int(count.group(1)) if count else 1
    assert drawn_hands == hands_of(text), f"{variant}: hands {drawn_hands} vs {text}"
    if s["outcome"] is None:
        page_legal = sorted(m["text"] for m in s["legal"])
        assert page_legal == legal, f"{variant}: legal moves differ from koma moves"


def check_board(driver, s, variant, text, files):
    """The drawn board shows the position `text`: each piece's kind, colour and label."""
    want = board_of(text, files)
    drawn = driver.execute_script(
        """
        const out = {};
        for (const sq of document.querySelectorAll('[data-square]')) {
          const p = sq.querySelector('.piece');
          if (p) out[sq.dataset.square] = [p.dataset.piece, p.querySelector('.face').textContent,
                                           p.classList.contains('black') ? 'black' : 'white'];
        }
        return out;
        """
    )
    labels = {p["id"]: p["label"] for p in s["variant"]["pieces"]}
    got = {k: (v[0], v[2]) for k, v in drawn.items()}
    assert got == want, f"{variant}: drawn board differs: {sorted(set(got.items()) ^ set(want.items()))}"
    for sq, (pid, face, _) in drawn.items():
        assert face == labels[pid], f"{variant}: {sq} shows '{face}' for {pid} ({labels[pid]})"


def wait_attr(driver, name, value, timeout=30):
    body = driver.find_element(By.TAG_NAME, "body")
    end = time.time() + timeout
    while time.time() < end:
        if body.get_attribute(name) == value:
            return
        time.sleep(0.05)
    raise AssertionError(f"body {name} is '{body.get_attribute(name)}', not '{value}'")


def check_review(driver, s, variant, files):
    """Steps back through the game and checks each position shown against koma."""
    moves = [h["text"] for h in s["history"]]
    n = len(moves)

    def shows(ply):
        wait_attr(driver, "data-review", "" if ply == n else str(ply))
        text, _ = koma_position(variant, s["start"], moves[:ply])
        check_board(driver, s, variant, text, files)

    driver.find_element(By.ID, "nav-first").click()
    shows(0)
    body = driver.find_element(By.TAG_NAME, "body")
    for ply in (1, 2):
        body.send_keys(Keys.ARROW_RIGHT)
        shows(ply)
    mid = max(1, n // 2)
    driver.find_element(By.CSS_SELECTOR, f'#move-list td[data-ply="{mid}"]').click()
    shows(mid)
    cell = driver.find_element(By.CSS_SELECTOR, f'#move-list td[data-ply="{mid}"]')
    assert "last" in cell.get_attribute("class"), f"{variant}: move {mid} not highlighted"
    assert f"after ply {mid} of {n}" in driver.find_element(By.ID, "review-text").text
    shot = None
    if variant == "ko-shogi":
        shot = os.path.join(OUT, "review.png")
        driver.save_screenshot(shot)
    body.send_keys(Keys.ARROW_LEFT)
    shows(mid - 1)
    driver.find_element(By.ID, "nav-last").click()
    shows(n)
    return shot


def check_record_file(driver, base, s, variant):
    """Save writes the record as a file; Load reads it back into the same game."""
    record = api(base, "/api/record")
    downloads = os.path.join(OUT, "downloads")
    for f in os.listdir(downloads):
        os.remove(os.path.join(downloads, f))
    driver.find_element(By.ID, "save-record").click()
    end = time.time() + 20
    saved = []
    while time.time() < end:
        saved = [f for f in os.listdir(downloads) if f.endswith(".txt")]
        if saved:
            break
        time.sleep(0.1)
    assert saved and saved[0].startswith(f"koma-{variant}-"), f"{variant}: no saved record {saved}"
    path = os.path.join(downloads, saved[0])
    with open(path) as f:
        text = f.read()
    assert text == record["text"], f"{variant}: the saved file differs from the record"
    api(base, "/api/new", {"human": "black"})
    driver.refresh()
    wait_idle(driver, 0)
    driver.find_element(By.ID, "load-file").send_keys(path)
    wait_attr(driver, "data-ply", str(len(s["history"])))
    loaded = api(base, "/api/state")
    assert [h["text"] for h in loaded["history"]] == [h["text"] for h in s["history"]]
    assert loaded["fen"] == s["fen"], f"{variant}: loaded game ends elsewhere"
    assert loaded["outcome"] == s["outcome"], f"{variant}: {loaded['outcome']} vs {s['outcome']}"


def check_pieces(driver, base, s, variant):
    """The piece panel: pointing at a board piece shows it; each kind picked from the list
    shows its diagram, which marks exactly the reference's squares."""
    ref = api(base, "/api/pieces")
    detail = driver.find_element(By.ID, "piece-detail")
    board = [p for p in s["board"] if p["color"] == s["human"]]
    target = board[len(board) // 2]
    sq = driver.find_element(By.CSS_SELECTOR, f'[data-square="{target["square"]}"]')
    ActionChains(driver).move_to_element(sq).perform()
    end = time.time() + 10
    while detail.get_attribute("data-piece") != target["piece"] and time.time() < end:
        time.sleep(0.05)
    assert detail.get_attribute("data-piece") == target["piece"], f"{variant}: hover showed {detail.get_attribute('data-piece')}"
    chips = driver.find_elements(By.CSS_SELECTOR, "#piece-list [data-piece-ref]")
    assert len(chips) == len(ref["pieces"]), f"{variant}: {len(chips)} kinds listed"
    # A promoted kind, a multi-leg mover, and the most marked kind.
    promoted = next((p for p in ref["pieces"] if p["promoted_from"]), ref["pieces"][-1])
    legs = next((p for p in ref["pieces"] if any("kill" in c["how"] for c in p["diagram"]["cells"])), None)
    busiest = max(ref["pieces"], key=lambda p: len(p["diagram"]["cells"]))
    shown = None
    for p in [x for x in (promoted, legs, busiest) if x]:
        driver.find_element(By.CSS_SELECTOR, f'#piece-list [data-piece-ref="{p["id"]}"]').click()
        marked = driver.execute_script(
            """
            const d = document.querySelector('#piece-detail .diagram');
            return [d.children.length,
                    [...d.children].filter((c) => c.className !== 'dcell' && !c.classList.contains('origin')).length,
                    document.querySelector('#piece-detail .piece-name').textContent];
            """
        )
        side = 2 * p["diagram"]["radius"] + 1
        assert marked[0] == side * side, f"{variant}: {p['id']} diagram has {marked[0]} squares"
        assert marked[1] == len(p["diagram"]["cells"]), f"{variant}: {p['id']} marks {marked[1]}, reference {len(p['diagram']['cells'])}"
        assert marked[2].lower() == p["name"].lower(), f"{variant}: panel names {marked[2]}"
        shown = p
    shooter = next((p for p in ref["pieces"] if p["shot"]), None)
    if shooter:
        driver.find_element(By.CSS_SELECTOR, f'#piece-list [data-piece-ref="{shooter["id"]}"]').click()
        shots = len(driver.find_elements(By.CSS_SELECTOR, "#piece-detail .diagram.shots .dcell.shot"))
        assert shots == 8 * shooter["shot"]["range"], f"{variant}: {shooter['id']} shows {shots} shot squares"
        driver.execute_script("document.getElementById('pieces-card').scrollIntoView({block: 'end'})")
        driver.save_screenshot(os.path.join(OUT, f"{variant}-shooter.png"))
    if variant == "ko-shogi":
        assert shooter, "ko-shogi: no shooter in the piece reference"
        ko_piece = legs or busiest
        driver.find_element(By.CSS_SELECTOR, f'#piece-list [data-piece-ref="{ko_piece["id"]}"]').click()
        driver.execute_script("document.getElementById('pieces-card').scrollIntoView({block: 'end'})")
        shot = os.path.join(OUT, "piece-panel.png")
        driver.save_screenshot(shot)
        return shot, ko_piece["id"]
    return None, shown["id"] if shown else None


def check_marks_and_clock(driver, base):
    """Hand Shogi: a check marks the king and the checking piece and names it; the person's
    clock, chosen with New game, counts down on the person's turn."""
    api(base, "/api/new", {"human": "black", "fen": "8k/9/9/9/9/9/9/1g7/K8 b -"})
    driver.refresh()
    wait_idle(driver, 0)
    a1 = driver.find_element(By.CSS_SELECTOR, '[data-square="a1"]').get_attribute("class")
    b2 = driver.find_element(By.CSS_SELECTOR, '[data-square="b2"]').get_attribute("class")
    assert "in-check" in a1 and "checker" in b2, f"check marks: a1 '{a1}', b2 '{b2}'"
    text = driver.find_element(By.ID, "check").text
    assert "Gold General on b2" in text, f"check text '{text}'"
    driver.save_screenshot(os.path.join(OUT, "check.png"))
    Select(driver.find_element(By.ID, "new-clock")).select_by_value("300,0")
    driver.find_element(By.ID, "new-game").click()
    clock = driver.find_element(By.ID, "person-clock")
    end = time.time() + 20
    while not clock.is_displayed() and time.time() < end:
        time.sleep(0.05)
    wait_idle(driver, 0)
    first = clock.text
    time.sleep(1.5)
    second = clock.text
    assert first in ("5:00", "4:59") and second < first, f"clock '{first}' then '{second}'"
    assert "running" in clock.get_attribute("class")


def check_panel(driver, variant):
    """The side panel: each evaluation line says whose view it is, the move list keeps room
    for several moves and the position text stays inside the panel however long it is."""
    info = driver.find_element(By.ID, "eval-info").text
    assert "network: win" in info and "for you" in info, f"{variant}: evaluation '{info}'"
    assert "search value" in info, f"{variant}: evaluation '{info}'"
    head = driver.find_element(By.CSS_SELECTOR, "#top-moves thead").text
    assert "q for you" in head, f"{variant}: top moves header '{head}'"
    box = driver.execute_script(
        """
        const r = (id) => document.getElementById(id).getBoundingClientRect();
        const card = r('moves-card'), fen = r('fen'), list = r('move-list');
        return {cardRight: card.right, cardBottom: card.bottom, fenRight: fen.right,
                fenBottom: fen.bottom, listHeight: list.height};
        """
    )
    assert box["listHeight"] >= 120, f"{variant}: move list {box['listHeight']:.0f} px tall"
    assert box["fenRight"] <= box["cardRight"] + 1, f"{variant}: position text runs out {box}"
    assert box["fenBottom"] <= box["cardBottom"] + 1, f"{variant}: position text runs out {box}"


def wait_idle(driver, ply_at_least, timeout=180):
    """Waits until the page is idle or over with at least the given ply."""
    body = driver.find_element(By.TAG_NAME, "body")
    end = time.time() + timeout
    while time.time() < end:
        status = body.get_attribute("data-status")
        ply = int(body.get_attribute("data-ply") or -1)
        if status in ("idle", "over") and ply >= ply_at_least:
            return status
        time.sleep(0.05)
    raise AssertionError(f"page not idle at ply {ply_at_least}: {body.get_attribute('data-status')}")


def click(driver, target, human):
    if target.startswith("@"):
        sel = f'[data-hand="{target[1:]}"][data-color="{human}"]'
    else:
        sel = f'[data-square="{target}"]'
    driver.find_element(By.CSS_SELECTOR, sel).click()


def enter_move(driver, s, m):
    """Enters move `m` by clicks, as a person would."""
    human = s["human"]
    for c in m["clicks"]:
        click(driver, c, human)
    longer = any(
        len(o["clicks"]) > len(m["clicks"]) and o["clicks"][: len(m["clicks"])] == m["clicks"]
        for o in s["legal"]
    )
    if longer:
        # Other moves go on from here: clicking the last square again ends the move there.
        click(driver, m["clicks"][-1], human)
    if is_choice(m, s) or (m["promotion"] != "+" and any(
        o["clicks"] == m["clicks"] and o["promotion"] == "+" for o in s["legal"]
    )):
        button = "promote-yes" if m["promotion"] == "+" else "promote-no"
        driver.find_element(By.ID, button).click()


def choose(s, goals, prepare, done, rng):
    legal = s["legal"]
    for name, test in goals:
        if name not in done:
            hits = [m for m in legal if test(m, s)]
            if hits:
                return rng.choice(hits), name
    for p in prepare:
        hits = [m for m in legal if p(m, s)]
        if hits and len(done) < len(goals):
            return rng.choice(hits), None
    # Otherwise take the opponent's King when possible (ending the game), else any move.
    them = "white" if s["human"] == "black" else "black"
    kings = {p["square"] for p in s["board"] if p["piece"] == "K" and p["color"] == them}
    royal = [m for m in legal if kings & set(m["kills"] + [m["to"]])]
    return rng.choice(royal or legal), None


def play(driver, variant, start, goals, prepare, rng):
    port = free_port()
    model = os.path.join(OUT, f"{variant}-model")
    subprocess.run([KOMA, "new-model", "--variant", variant, "--out", model],
                   check=True, capture_output=True)
    server = subprocess.Popen(
        [KOMA, "play", "--model", model, "--port", str(port), "--sims", "8"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(200):
            try:
                api(base, "/api/state")
                break
            except OSError:
                time.sleep(0.1)
        s = api(base, "/api/new", {"human": "black", "fen": start})
        files = s["variant"]["files"]
        driver.get(base + "/")
        wait_idle(driver, 0)
        check_page(driver, s, variant, s["start"], files)
        done = []
        human_moves = 0
        while True:
            s = api(base, "/api/state")
            if s["outcome"] is not None:
                break
            assert s["side_to_move"] == s["human"], f"{variant}: the engine did not answer"
            m, goal = choose(s, goals, prepare, done, rng)
            ply = s["ply"]
            enter_move(driver, s, m)
            wait_idle(driver, ply + 1)
            s = api(base, "/api/state")
            assert s["history"][ply]["text"] == m["text"], (
                f"{variant}: clicked {m['clicks']} for {m['text']}, "
                f"the page played {s['history'][ply]['text']}")
            assert s["history"][ply]["by"] == "human"
            if goal:
                done.append(goal)
            human_moves += 1
            if s["outcome"] is None:
                wait_idle(driver, ply + 2)
                s = api(base, "/api/state")
                assert s["history"][ply + 1]["by"] == "engine"
            check_page(driver, s, variant, s["start"], files)
        missing = [g for g, _ in goals if g not in done]
        assert not missing, f"{variant}: never played a {missing}"
        status = driver.find_element(By.ID, "status").text
        assert s["outcome"]["text"] in status, f"{variant}: status '{status}'"
        check_panel(driver, variant)
        shot = os.path.join(OUT, f"{variant}.png")
        driver.save_screenshot(shot)
        print(f"{variant}: {len(s['history'])} plies ({human_moves} clicked), "
              f"{', '.join(done)}; {s['outcome']['text']} ({s['outcome']['result']}); {shot}")
        review = check_review(driver, s, variant, files)
        pieces, kind = check_pieces(driver, base, s, variant)
        check_record_file(driver, base, s, variant)
        print(f"{variant}: review, piece panel ({kind}) and record save/load checked"
              + (f"; {review}, {pieces}" if review or pieces else ""))
        if variant == "hand-shogi":
            check_marks_and_clock(driver, base)
            print(f"{variant}: check marks and clock checked")
    finally:
        server.terminate()
        server.wait(timeout=10)


def main():
    os.makedirs(OUT, exist_ok=True)
    options = Options()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1400,1000"):
        options.add_argument(arg)
    downloads = os.path.join(OUT, "downloads")
    os.makedirs(downloads, exist_ok=True)
    options.add_experimental_option("prefs", {
        "download.default_directory": downloads, "download.prompt_for_download": False})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    rng = random.Random(7)
    failed = 0
    try:
        for variant, start, goals, prepare in GAMES:
            try:
                play(driver, variant, start, goals, prepare, rng)
            except Exception as e:  # report every variant, then fail
                failed += 1
                driver.save_screenshot(os.path.join(OUT, f"{variant}-failed.png"))
                print(f"{variant}: FAILED: {e}")
    finally:
        driver.quit()
    print(f"browser: {len(GAMES) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
