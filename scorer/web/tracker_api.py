"""Placeholder blueprint; its feature fills it in."""
from flask import Blueprint

bp = Blueprint("tracker_api", __name__)
CSRF_EXEMPT = True
