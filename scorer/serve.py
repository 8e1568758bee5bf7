"""The production server `python -m scorer serve` starts (the launcher's half; no routes here)."""
from __future__ import annotations


def run_server(app, host: str, port: int, workers: int, threads: int, wsgi=None) -> None:
    """Gunicorn with threaded workers: the app is built once here and the workers are forked
    from it (so they share the secret key and the checked catalog); each worker drops the
    database connections it inherited and opens its own. ``wsgi`` serves instead of the app
    itself (the bench mounts a bare endpoint beside it)."""
    from gunicorn.app.base import BaseApplication

    def post_fork(server, worker):
        app.extensions["db"].engine.dispose(close=False)

    class Server(BaseApplication):
        def load_config(self):
            for key, value in {
                "bind": f"[{host}]:{port}" if ":" in host else f"{host}:{port}",
                "workers": workers, "worker_class": "gthread", "threads": threads,
                "post_fork": post_fork, "timeout": 60, "graceful_timeout": 5, "keepalive": 5,
                "accesslog": None, "errorlog": "-", "loglevel": "warning",
            }.items():
                self.cfg.set(key, value)

        def load(self):
            return wsgi or app

    Server().run()
