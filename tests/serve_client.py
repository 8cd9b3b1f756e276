"""What the serve tests share besides their server (tests/conftest.py): texts, limits, and the restorers that the
server's answers must equal."""

from functools import cache

from charrestore import Restorer

TEXT = ("will ai change our future obviously the answer is yes but what are the risks i am not technical "
        "i'm not an engineer i don't play one on the internet so what do you think")
SAMPLES = {"en": TEXT, "ja": "今日は雨が降っていますか明日は晴れるでしょう",
           "gu": "ગુજરાત ભારત દેશનું એક રાજ્ય છે તેની રાજધાની ગાંધીનગર છે"}
MAX_BODY, MAX_CHARS = 200_000, 20_000


@cache
def restorer(lang="en", engine="auto", spaces="auto"):
    """One restorer per configuration, shared by the tests (as the server shares its models)."""
    return Restorer(lang=lang, engine=engine, spaces=spaces)


def assert_no_crash(server, http):
    assert http.get("/healthz").json()["status"] == "ok"
    log = server.log.read_text()
    assert "Traceback" not in log and "500 Internal" not in log, log
