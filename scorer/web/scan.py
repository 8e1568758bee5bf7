"""Placeholder blueprint; its feature fills it in."""
from flask import Blueprint

bp = Blueprint("scan", __name__)
