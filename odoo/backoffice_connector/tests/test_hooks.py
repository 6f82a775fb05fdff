from odoo.tests import tagged
from odoo.modules.module import get_manifest

from ..hooks import FIELDS, MODELS, pre_init_hook
from .common import BackofficeCase


@tagged("post_install", "-at_install")
class TestPreInitHook(BackofficeCase):
    """pre_init_hook adopts a former Odoo Studio setup: manual rows become code-defined."""

    def _states(self, model, names):
        self.env.cr.execute(
            "SELECT name, state FROM ir_model_fields WHERE model = %s AND name IN %s", [model, tuple(names)])
        return dict(self.env.cr.fetchall())

    def _model_states(self):
        self.env.cr.execute("SELECT model, state FROM ir_model WHERE model IN %s", [MODELS])
        return dict(self.env.cr.fetchall())

    def test_declared(self):
        self.assertEqual(get_manifest("backoffice_connector")["pre_init_hook"], "pre_init_hook")

    def _make_studio_like(self):
        # As Studio left them (SQL only: the registry is not reloaded, the test's transaction is rolled back).
        self.env.flush_all()
        self.env.cr.execute("UPDATE ir_model SET state = 'manual' WHERE model IN %s", [MODELS])
        self.env.cr.execute(
            "UPDATE ir_model_fields SET state = 'manual'"
            " WHERE (model = 'res.partner' AND name IN ('x_notes', 'x_studio_tipo_inversor', 'x_backoffice_key'))"
            "    OR (model = 'x_tipo_inversor' AND name = 'x_name')")

    def test_adopts_manual_rows(self):
        for arg in ("env", "cr"):  # Odoo 17+ passes env, 16 passes cr
            with self.subTest(argument=arg):
                self._make_studio_like()
                self.assertEqual(set(self._model_states().values()), {"manual"})
                pre_init_hook(self.env if arg == "env" else self.env.cr)
                self.assertEqual(self._model_states(), {m: "base" for m in MODELS})
                self.assertEqual(self._states("res.partner", ["x_notes", "x_studio_tipo_inversor", "x_backoffice_key"]),
                                 {"x_notes": "base", "x_studio_tipo_inversor": "base",
                                  # a field not in the hook's list (never a Studio one) is left as it was
                                  "x_backoffice_key": "manual"})
                self.assertEqual(self._states("x_tipo_inversor", ["x_name"]), {"x_name": "base"})

    def test_fields_listed_are_the_modules(self):
        """Every field the hook adopts is one the module defines (a typo would leave a Studio field)."""
        for model, names in FIELDS.items():
            for name in names:
                self.assertIn(name, self.env[model]._fields, "%s.%s" % (model, name))
                self.assertIn("backoffice_connector", self.env["ir.model.fields"]._get(model, name).modules)
