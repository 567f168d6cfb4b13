"""The shipped deployment files agree with the program and with ``docs/deploy.md``
(issue 32 item 1): every placeholder of the nginx site is given a value by the guide's
``sed`` line, every variable of the environment file is read by the unit or by dogfight
itself, and every option the unit passes is one of ``dogfight serve``'s.
``tests/test_deploy_nginx.py`` runs the site itself."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "deploy" / "nginx" / "dogfight.conf"
UNIT = ROOT / "deploy" / "systemd" / "dogfight@.service"
ENV = ROOT / "deploy" / "systemd" / "dogfight.env"
GUIDE = ROOT / "docs" / "deploy.md"
PLACEHOLDER = r"@[A-Z0-9_]+@"


def _exec_start() -> str:
    line = next(ln for ln in UNIT.read_text().splitlines() if ln.startswith("ExecStart="))
    return line.partition("=")[2]


def test_the_guide_fills_every_placeholder_of_the_site() -> None:
    body = "\n".join(
        line for line in SITE.read_text().splitlines() if not line.lstrip().startswith("#")
    )
    used = set(re.findall(PLACEHOLDER, body))
    assert used >= {"@SERVER_NAME@", "@UPSTREAM@", "@CERTIFICATE@", "@CERTIFICATE_KEY@"}
    guide = GUIDE.read_text()
    sed = guide[guide.index("sed -e") : guide.index("deploy/nginx/dogfight.conf >")]
    assert set(re.findall(r"s[/|](" + PLACEHOLDER + ")[/|]", sed)) == used
    # the site's own header lists each with a usual value
    header = [line for line in SITE.read_text().splitlines() if line.startswith("#   @")]
    assert {line.split()[1] for line in header} == used


def test_every_variable_of_the_environment_file_is_read() -> None:
    names = re.findall(r"^#?(DOGFIGHT_[A-Z_]+)=", ENV.read_text(), re.MULTILINE)
    assert "DOGFIGHT_PUBLIC_URL" in names and "DOGFIGHT_TRUSTED_PROXY" in names
    unit = _exec_start()
    source = "\n".join(p.read_text() for p in (ROOT / "src" / "dogfight").rglob("*.py"))
    for name in names:
        assert "${" + name + "}" in unit or f'"{name}"' in source, name


def test_the_unit_passes_options_of_dogfight_serve() -> None:
    command = _exec_start().split()
    assert command[:2] == ["/opt/dogfight/bin/dogfight", "serve"]
    options = [word for word in command if word.startswith("--")]
    assert "--reuse-port" in options
    helped = subprocess.run(
        [sys.executable, "-m", "dogfight", "serve", "--help"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "COLUMNS": "200"},  # no option name cut by the layout
    )
    assert helped.returncode == 0, helped.stderr
    for option in options:
        assert option in helped.stdout, option
