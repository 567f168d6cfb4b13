"""The shipped deployment, run (issue 32 item 1): Debian's nginx on ``deploy/nginx/
dogfight.conf`` (its placeholders filled with a test's values, as the admin fills them
with theirs: one file) terminating TLS with a throwaway self-signed certificate, in front
of two ``dogfight serve --reuse-port`` processes sharing one port and a throwaway
PostgreSQL, started as ``deploy/systemd/dogfight.env`` says (``--trusted-proxy
127.0.0.1``, ``--allow-host``, ``--public-url``).

Chromium opens the lobby at ``https://dogfight.test:PORT`` (the name mapped to ``::1``,
so that nginx sees the browser at another address than the processes see nginx), makes a
duel for two players, opens each seat's link (written by the server with the public
address) in a page of its own and plays the duel to its end: the table's WebSocket is
``wss://``. Every request carries a forged ``X-Forwarded-For``; nginx appends the address
it saw, and the processes count the browser's games by that address (``::1``), neither
the forged one nor nginx's own. ``/healthz`` and ``/readyz`` answer through nginx, and
``/readyz`` turns 503 when PostgreSQL stops.

Skipped (with the reason) without nginx, PostgreSQL's programs, openssl or chromium."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from browser_helpers import END, NEXT, needs_chromium, new_page, next_to_plan, pick, submit
from server_helpers import Server, free_port

from dogfight.bench.browser import ARGS, CHROMIUM
from dogfight.bench.pgcluster import Cluster, NoPostgres

NGINX = "/usr/sbin/nginx"
OPENSSL = shutil.which("openssl")
SITE = Path(__file__).resolve().parent.parent / "deploy" / "nginx" / "dogfight.conf"
NAME = "dogfight.test"
"""The site's name in the test: Chromium resolves it to ``::1``."""
FORGED = "203.0.113.7"
"""What every request of the browser claims to come from."""

pytestmark = [
    needs_chromium,
    pytest.mark.skipif(
        not os.path.exists(NGINX), reason=f"no nginx at {NGINX} (apt-get install nginx)"
    ),
    pytest.mark.skipif(
        OPENSSL is None, reason="no openssl to make a certificate (apt-get install openssl)"
    ),
]


def fill(template: str, values: dict[str, str]) -> str:
    """The site with each ``@NAME@`` replaced (docs/deploy.md); every one must be given."""
    filled = template
    for name, value in values.items():
        filled = filled.replace(f"@{name}@", value)
    left = re.findall(r"@[A-Z0-9_]+@", filled)
    assert not left, f"placeholders the test gave no value for: {left}"
    return filled


def certificate(folder: Path) -> tuple[Path, Path]:
    """A throwaway self-signed certificate for :data:`NAME` (openssl; the ``cryptography``
    package is not installed here)."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    assert OPENSSL is not None
    command = f"{OPENSSL} req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2"
    files = ["-keyout", str(key), "-out", str(cert)]
    name = ["-subj", f"/CN={NAME}", "-addext", f"subjectAltName=DNS:{NAME}"]
    subprocess.run([*command.split(), *files, *name], check=True, capture_output=True)
    return cert, key


@dataclass
class Nginx:
    """Debian's nginx on a configuration of its own in ``folder`` (its pid file, logs and
    temporary folders there), as the test's user, in the foreground."""

    folder: Path
    https: int
    http: int
    process: subprocess.Popen[bytes] | None = None

    def start(self, site: str) -> None:
        (self.folder / "site.conf").write_text(site)
        temp = "\n".join(
            f"    {kind}_temp_path {self.folder / kind};"
            for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        # as root the workers would become "nobody" and could not reach the folder
        user = "user root;\n" if os.geteuid() == 0 else ""
        (self.folder / "nginx.conf").write_text(
            f"{user}daemon off;\nworker_processes 1;\npid {self.folder / 'nginx.pid'};\n"
            f"error_log {self.folder / 'error.log'} notice;\n"
            "events { worker_connections 256; }\n"
            "http {\n"
            f"    access_log {self.folder / 'access.log'};\n{temp}\n"
            f"    include {self.folder / 'site.conf'};\n"
            "}\n"
        )
        command = [NGINX, "-p", str(self.folder), "-c", str(self.folder / "nginx.conf")]
        tested = subprocess.run([*command, "-t"], capture_output=True, text=True)
        assert tested.returncode == 0, tested.stderr
        self.process = subprocess.Popen(command, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.log()
            try:
                if self.get("/healthz").status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.05)
        raise AssertionError("nginx did not answer: " + self.log())

    def get(self, path: str, scheme: str = "https") -> httpx.Response:
        """A request to nginx on 127.0.0.1 naming the site (certificate not checked)."""
        port = self.https if scheme == "https" else self.http
        return httpx.get(
            f"{scheme}://127.0.0.1:{port}{path}", headers={"Host": NAME}, verify=False, timeout=20
        )

    def log(self) -> str:
        path = self.folder / "error.log"
        return path.read_text() if path.exists() else ""

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGQUIT)  # nginx's graceful stop
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


@dataclass
class Site:
    nginx: Nginx
    cluster: Cluster
    servers: tuple[Server, Server]
    public: str


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """PostgreSQL, two processes on one port behind nginx with TLS: the deployment."""
    try:
        cluster = Cluster()  # its own: the test stops it
    except NoPostgres as exc:
        pytest.skip(str(exc))
    folder = tmp_path_factory.mktemp("nginx")
    nginx = Nginx(folder, https=free_port(), http=free_port())
    public = f"https://{NAME}:{nginx.https}"
    port = free_port()
    servers: list[Server] = []
    try:
        db = cluster.new_database()
        # as deploy/systemd/dogfight.env sets them (one game a minute: see the test)
        args = f"--reuse-port --trusted-proxy 127.0.0.1 --allow-host {NAME}".split()
        args += ["--public-url", public, "--games-per-minute", "1"]
        with ThreadPoolExecutor(2) as pool:
            futures = [pool.submit(Server, db, None, args, port) for _ in range(2)]
            for future in futures:
                servers.append(future.result())
        cert, key = certificate(folder)
        nginx.start(
            fill(
                SITE.read_text(),
                {
                    "SERVER_NAME": NAME,
                    "HTTP_LISTEN": f"127.0.0.1:{nginx.http}",
                    "HTTP_LISTEN6": f"[::1]:{nginx.http}",
                    "HTTPS_LISTEN": f"127.0.0.1:{nginx.https}",
                    "HTTPS_LISTEN6": f"[::1]:{nginx.https}",
                    "CERTIFICATE": str(cert),
                    "CERTIFICATE_KEY": str(key),
                    "ACME_ROOT": str(folder / "acme"),
                    "UPSTREAM": f"127.0.0.1:{port}",
                },
            )
        )
        yield Site(nginx, cluster, (servers[0], servers[1]), public)
    finally:
        nginx.stop()
        for server in servers:
            server.kill()
        if cluster.folder.exists():  # (the test stops it)
            cluster.stop()


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """Chromium resolving :data:`NAME` to ``::1`` (nginx then sees the browser at ``::1``
    while the processes see nginx at 127.0.0.1)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        launched = p.chromium.launch(
            executable_path=CHROMIUM, args=[*ARGS, f"--host-resolver-rules=MAP {NAME} [::1]"]
        )
        try:
            yield launched
        finally:
            launched.close()


def browser_page(browser: Any, sockets: list[str]) -> Any:
    """A page that accepts the throwaway certificate, claims :data:`FORGED` in every
    request, and records the address of every WebSocket it opens."""
    page = new_page(
        browser, ignore_https_errors=True, extra_http_headers={"X-Forwarded-For": FORGED}
    )
    page.on("websocket", lambda ws: sockets.append(ws.url))
    return page


def play_to_the_end(pages: dict[str, Any]) -> int:
    """Each page plans its airplane whenever it is asked (straights), lifts curtains and
    answers prompts, until every page shows the end screen; the plans submitted."""
    planned = 0
    ended: set[str] = set()
    for _ in range(3000):  # a bound on the loop, not on time: turns come when they come
        moved = False
        for vehicle, page in pages.items():
            if vehicle in ended or page.query_selector(NEXT) is None:
                continue
            asked = next_to_plan(page)
            moved = True
            if asked == END:
                ended.add(vehicle)
            elif asked is not None:
                assert asked == vehicle
                pick(page, vehicle, ["1", "2", "3"])
                page.wait_for_selector("#submit-plans:not([disabled])")
                submit(page)
                planned += 1
        if len(ended) == len(pages):
            return planned
        if not moved:
            next(iter(pages.values())).wait_for_timeout(100)
    raise AssertionError(f"the duel did not end on every page ({sorted(ended)} did)")


def test_a_whole_duel_through_tls_and_two_processes(site: Site, chromium: Any) -> None:
    nginx, public = site.nginx, site.public
    # plain HTTP is sent to HTTPS; the certificates' challenge folder is served there
    redirect = nginx.get("/play/x", scheme="http")
    assert redirect.status_code == 301
    assert redirect.headers["location"] == f"https://{NAME}/play/x"
    assert nginx.get("/healthz").json() == {"ok": True}
    ready = nginx.get("/readyz")
    assert ready.status_code == 200 and ready.json()["ok"] is True

    sockets: list[str] = []
    lobby = browser_page(chromium, sockets)
    lobby.goto(public + "/")
    lobby.check("input[name=preset][value='duel']")
    lobby.click("#create")
    # the server writes the links with the public address, and the lobby shows them whole
    lobby.wait_for_selector(f"#hotseat[href^='{public}/play/']")
    links = lobby.eval_on_selector_all(
        ".seat-link", "els => els.map(e => [e.dataset.seat, e.getAttribute('href'), e.textContent])"
    )
    assert len(links) == 2
    for _, href, shown in links:
        assert href.startswith(f"{public}/play/") and shown == href
    assert lobby.is_hidden("#loopback-note")  # players elsewhere reach it through nginx

    pages: dict[str, Any] = {}
    for _, href, _ in links:
        page = browser_page(chromium, sockets)
        path, _, fragment = href.partition("#")
        page.goto(f"{path}?speed=40#{fragment}")
        vehicle = page.get_attribute("[data-plan]", "data-plan")
        assert vehicle in ("camel", "albatros")
        pages[str(vehicle)] = page
    assert set(pages) == {"camel", "albatros"}
    # a held seat's link, made again by the page, has the public address too
    tools = pages["camel"].get_attribute("#seat-tools .seat-link", "href")
    assert tools is not None and tools.startswith(f"{public}/play/")

    planned = play_to_the_end(pages)
    # each seat planned (a duel's damage decks are shuffled anew: it may end in one turn)
    assert planned >= 2
    for page in pages.values():
        assert "Game over" in page.inner_text("#end-screen")
        assert page.errors == []
    assert sockets and all(
        url.startswith(f"wss://{NAME}:{nginx.https}/api/games/") for url in sockets
    )

    # the processes count the browser's games by the address nginx saw (::1), not by the
    # forged one nor by nginx's own: one game a minute each, so some of these are 429
    answers = pages["camel"].evaluate(
        """async () => {
          const out = [];
          for (let i = 0; i < 4; i++) {
            const r = await fetch('/api/games', {method: 'POST',
              headers: {'Content-Type': 'application/json'}, body: '{"preset": "duel"}'});
            out.push([r.status, await r.text()]);
          }
          return out;
        }"""
    )
    refused = [json.loads(body)["error"] for status, body in answers if status == 429]
    assert refused, answers
    for error in refused:
        assert "(::1)" in error and FORGED not in error and "127.0.0.1" not in error, error

    # both processes served all along (a second one that died at start would have left
    # the first to answer everything on the shared port)
    assert all(server.process.poll() is None for server in site.servers)

    # PostgreSQL stops: the processes are alive, not ready (through nginx too)
    where = str(site.cluster.folder)
    site.cluster.stop()
    assert nginx.get("/healthz").json() == {"ok": True}
    down = nginx.get("/readyz")
    assert down.status_code == 503, down.text
    assert "database" in down.json()["failed"] and where not in down.text
    assert "[crit]" not in nginx.log() and "[emerg]" not in nginx.log()
