"""The console's flows run inside Odoo and undone (connector 1.3.0, ``npm run odoo:check -- --journeys``).

The console sends the calls it would make for a bill with its file and note, its validation and rejection, a comment,
an order with lines and taxes, a contact: each as execute_kw takes it (model, method, args, kwargs with their
context). They run here, as the API user (the caller: no sudo, no other user's credentials), one after the other in
one savepoint, which is then rolled back with whatever the calls left for the end of the transaction (Odoo's
tracking, notifications): nothing stays in the company's books. Each step's outcome is answered, so the console can
say per company and user what works, and for what fails, Odoo's reason.
"""
import logging

from odoo import _
from odoo.exceptions import AccessError, UserError

_logger = logging.getLogger(__name__)

try:  # Odoo 19
    from odoo.service.model import call_kw
except ImportError:  # Odoo 16 to 18
    from odoo.api import call_kw

MAX_STEPS = 50


class _Undo(Exception):
    """Raised at the end of the steps to roll their savepoint back."""


def _resolve(value, answers):
    """The value with each {"$ref": n} replaced by what step n answered (an id, or the first of a list of ids)."""
    if isinstance(value, dict):
        if set(value) == {"$ref"}:
            answer = answers[value["$ref"]]
            if isinstance(answer, (list, tuple)):
                return answer[0] if answer else False
            return answer
        return {key: _resolve(item, answers) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_resolve(item, answers) for item in value]
    return value


def _refs(value):
    if isinstance(value, dict):
        if set(value) == {"$ref"}:
            return {value["$ref"]}
        return set().union(*(_refs(item) for item in value.values())) if value else set()
    if isinstance(value, (list, tuple)):
        return set().union(*(_refs(item) for item in value)) if value else set()
    return set()


def run_journey_steps(env, steps):
    if not isinstance(steps, (list, tuple)) or len(steps) > MAX_STEPS:
        raise UserError(_("Give a list of at most %s steps.", MAX_STEPS))
    outcomes = []
    answers = {}
    cr = env.cr
    try:
        with cr.savepoint():
            for index, step in enumerate(steps):
                model, method = step.get("model"), step.get("method")
                if not isinstance(method, str) or method.startswith("_") or model not in env:
                    raise AccessError(_("Step %s calls nothing the console may call.", index))
                failed = sorted(ref for ref in _refs(step) if ref not in answers)
                if failed:
                    outcomes.append({"ok": False, "skipped": True, "name": "skipped", "message": "step %s failed" % failed[0]})
                    continue
                args = _resolve(step.get("args") or [], answers)
                kwargs = _resolve(step.get("kwargs") or {}, answers)
                try:
                    # Each step in its own savepoint: one that fails leaves the others as they would be.
                    with cr.savepoint():
                        result = call_kw(env[model], method, args, kwargs)
                        env.flush_all()
                    answers[index] = result
                    outcomes.append({"ok": True, "result": result if isinstance(result, (int, bool, str, list, type(None))) else True})
                except Exception as error:  # noqa: BLE001 - every refusal is the step's outcome
                    env.invalidate_all()
                    name = "%s.%s" % (type(error).__module__, type(error).__name__)
                    message = getattr(error, "args", [str(error)])[0] if getattr(error, "args", None) else str(error)
                    outcomes.append({"ok": False, "name": name, "message": str(message)})
            # What the steps left for the end of the transaction (tracking, notifications) runs now, inside the
            # savepoint, and is undone with it; what would run after the commit is dropped.
            env.flush_all()
            cr.precommit.run()
            raise _Undo()
    except _Undo:
        pass
    cr.postcommit.clear()
    env.invalidate_all()
    _logger.info("backoffice journeys: %s steps run and undone, %s failed", len(outcomes), sum(1 for one in outcomes if not one["ok"]))
    return outcomes
