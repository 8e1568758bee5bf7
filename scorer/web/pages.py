"""Pages: home and the scoring pages (placeholder until the scoring pages land)."""
from flask import Blueprint, render_template_string

bp = Blueprint("pages", __name__)


@bp.get("/")
def home():
    return render_template_string('{% extends "base.html" %}{% block content %}<h1>Make Me a Planet</h1>{% endblock %}')
