"""JSON scoring API: ``POST /api/score`` (SPEC §2)."""
from __future__ import annotations

from flask import Blueprint, jsonify, request

from ..contract import parse_json, score_request
from ..errors import InputError

bp = Blueprint("api", __name__, url_prefix="/api")
CSRF_EXEMPT = True  # JSON clients, no cookies or sessions involved


@bp.post("/score")
def score():
    try:
        return jsonify(score_request(parse_json(request.get_data(cache=False))))
    except InputError as exc:
        return jsonify(exc.as_json()), 400
