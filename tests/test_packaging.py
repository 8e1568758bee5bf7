"""A plain `pip install .` (not editable) serves every page: templates, static files, the tile
catalog and the tile art ship inside the packages."""
from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHECK = textwrap.dedent("""
    import sys, scorer, vision
    assert scorer.__file__.startswith(sys.argv[1]), scorer.__file__
    from scorer.web import create_app
    app = create_app({"TESTING": True, "INSTANCE_PATH": sys.argv[2]})
    client = app.test_client()
    pages = ["/", "/score", "/score?players=5", "/scan", "/games/new",
             "/static/css/app.css", "/static/vendor/htmx-2.0.11.min.js", "/art/K01.png"]
    for url in pages:
        r = client.get(url)
        assert r.status_code == 200, (url, r.status_code)
        assert len(r.data) > 100, url
    print("served", len(pages))
""")


def test_a_plain_install_serves_every_page(tmp_path):
    target = tmp_path / "site"
    pip = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-compile",
                          "--target", str(target), str(ROOT)], capture_output=True, text=True, timeout=300)
    assert pip.returncode == 0, pip.stderr[-2000:]
    assert (target / "scorer" / "templates" / "base.html").is_file()
    # Run from an empty folder, with the installed copy first on the path (dependencies still come
    # from this environment), so nothing can be read from the checkout.
    check = tmp_path / "check.py"
    check.write_text(f"import sys\nsys.path.insert(0, {str(target)!r})\n" + CHECK)
    run = subprocess.run([sys.executable, "-I", str(check), str(target), str(tmp_path / "instance")],
                         capture_output=True, text=True, timeout=120, cwd=tmp_path, env={"PATH": "/usr/bin:/bin"})
    assert run.returncode == 0, (run.stdout + run.stderr)[-3000:]
    assert "served 8" in run.stdout
