"""Placeholder blueprint; its feature fills it in."""
from flask import Blueprint

bp = Blueprint("tracker_pages", __name__)
