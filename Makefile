# The README's two commands: `make run` and `make test`. Both set up what they need.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 0.0.0.0
PORT ?= 5000

.PHONY: run test lint test-postgres bench setup setup-test chromium clean i18n-extract i18n-update i18n-compile i18n-init

$(PY):
	@echo "== 1/3 creating the virtual environment in $(VENV)"
	$(PYTHON) -m venv $(VENV)
	@echo "== 2/3 upgrading pip"
	$(PY) -m pip install --progress-bar on --upgrade pip

# Versions are pinned by constraints.txt (what the figures were measured with).
# Installing runs only when pyproject.toml or constraints.txt changed since the last install (a stamp file per
# extra), so a second `make run` starts at once. pip prints its progress (the first install
# fetches ~300 MB from the package index: OpenCV, NumPy, Pillow, Playwright for the tests).
$(VENV)/.installed: pyproject.toml constraints.txt | $(PY)
	@echo "== 3/3 installing the app and its dependencies (pip's progress follows)"
	$(PY) -m pip install --progress-bar on -c constraints.txt -e .
	@touch $@

$(VENV)/.installed-test: pyproject.toml constraints.txt | $(PY)
	@echo "== 3/3 installing the app, its dependencies and the test tools (pip's progress follows)"
	$(PY) -m pip install --progress-bar on -c constraints.txt -e '.[test]'
	@touch $@ $(VENV)/.installed

setup: $(VENV)/.installed


setup-test: $(VENV)/.installed-test

# A fresh machine often runs apt itself at boot (unattended upgrades): wait for its locks (up to
# 10 minutes) rather than fail. `install` waits through DPkg::Lock::Timeout; `update` does not
# honour it, so it is retried.
APT_INSTALL = for try in $$(seq 60); do $$SUDO apt-get update -qq && break; sleep 10; done; \
	DEBIAN_FRONTEND=noninteractive $$SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq

# Browser tests drive Debian's Chromium (Playwright's own browser download is not used).
chromium:
	@if ! command -v chromium >/dev/null 2>&1; then \
		echo "Installing Debian's chromium (needs root) ..."; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$(APT_INSTALL) chromium fonts-dejavu-core fonts-wqy-microhei >/dev/null; \
	fi
	@# Chinese pages (and the results picture) need a CJK font, as every phone has.
	@if ! fc-list 2>/dev/null | grep -qi "wqy\|noto sans cjk"; then \
		echo "Installing a Chinese font (needs root) ..."; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$(APT_INSTALL) fonts-wqy-microhei >/dev/null; \
	fi

run: setup
	@echo "== starting the server"
	$(PY) -m scorer serve --host $(HOST) --port $(PORT)

# The pure core is typed strictly; the whole tree is linted for real mistakes (not style).
STRICT := scorer/catalog.py scorer/planet.py scorer/rules.py scorer/contract.py scorer/errors.py \
	scorer/i18n.py scorer/names.py scorer/limits.py scorer/settings.py scorer/history.py \
	scorer/jsonin.py scorer/draft
lint: setup-test
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy --strict $(STRICT)

test: setup-test chromium lint
	$(PY) -m pytest

# The tests that touch the database, again on a throwaway PostgreSQL server (CI runs this too).
test-postgres: setup-test
	@$(PY) -m pip install --quiet -c constraints.txt -e '.[postgres]' >/dev/null 2>&1 || $(PY) -m pip install -c constraints.txt -e '.[postgres]'
	scripts/with-postgres $(PY) -m pytest -q tests/test_contract.py tests/test_pages.py tests/test_scan_page.py \
		tests/test_tracker.py tests/test_tracker_api.py tests/test_tracker_pages.py tests/test_box_store.py tests/test_box_pages.py \
		tests/test_live.py tests/test_stored_times.py tests/test_history.py tests/test_history_export.py tests/test_expiry.py

# Speed and accuracy, printed as numbers: scoring (core and HTTP beside a bare endpoint), the
# tracker under 100 concurrent tables, game night open-loop (scorer.load_bench), the draft engine per
# call, the recognizer over sample_photos/, and the history and player stats pages over 10,000 plays.
bench: setup-test
	@echo "== scoring =="
	$(PY) -m scorer bench
	@echo "== tracker =="
	$(PY) -m scorer.tracker_bench
	@echo "== game night: open-loop load, phones on event streams, the largest number of tables that holds =="
	$(PY) -m scorer.load_bench --search 25,50,100,200,500,1000
	@echo "== a scan flood: 32 phones sending worst-case photos, /api/score meanwhile, server memory =="
	-$(PY) -m scorer.flood_bench   # exit 1 past its goals; the benches after it still run
	@echo "== draft engine =="
	$(PY) -m scorer.draft_bench
	@echo "== vision =="
	$(PY) -m vision.bench --held-out
	@echo "== history and player stats (10,000 plays) =="
	$(PY) -m scorer.history_bench
	@echo "== teaching a box through the pages =="
	$(PY) -m scorer.box_bench

# Translations: scorer/translations/<locale>/LC_MESSAGES/messages.po, compiled to .mo (both committed;
# a test fails when a .mo is older than its .po, or when a message has no translation).
# Change texts, then: make i18n-update, translate the new entries, make i18n-compile.
# A new language: make i18n-init LOCALE=de, translate, make i18n-compile (it is picked up from the folder).
POT := build/messages.pot
TRANSLATIONS := scorer/translations
i18n-extract: setup-test
	@mkdir -p build
	$(VENV)/bin/pybabel extract -F babel.cfg --no-location --sort-output -o $(POT) .
i18n-update: i18n-extract
	$(VENV)/bin/pybabel update -i $(POT) -d $(TRANSLATIONS) --no-fuzzy-matching --ignore-obsolete
i18n-compile: setup-test
	$(VENV)/bin/pybabel compile -d $(TRANSLATIONS) --statistics
i18n-init: i18n-extract
	@test -n "$(LOCALE)" || { echo "usage: make i18n-init LOCALE=de"; exit 2; }
	$(VENV)/bin/pybabel init -i $(POT) -d $(TRANSLATIONS) -l $(LOCALE)

clean:
	rm -rf $(VENV) instance .pytest_cache .hypothesis test-artifacts
