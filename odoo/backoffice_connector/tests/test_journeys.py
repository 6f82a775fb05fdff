import base64

from odoo.exceptions import AccessError, UserError
from odoo.tests import tagged

from .common import BackofficeCase

PDF = base64.b64encode(b"%PDF-1.4\n% backoffice journeys test\n").decode()


@tagged("post_install", "-at_install")
class TestJourneys(BackofficeCase):
    """backoffice_journeys (1.3.0): the console's calls run as the caller, each one's outcome answered, all undone."""

    def setUp(self):
        super().setUp()
        self._require(self.journal)
        self.api_user = self._user("bo_test_journeys", "account.group_account_invoice", email="api.journeys@example.com")
        self.Move = self.env["account.move"].with_user(self.api_user)

    def _counts(self):
        return [self.env[model].sudo().with_context(active_test=False).search_count([])
                for model in ("account.move", "ir.attachment", "mail.message", "res.partner")]

    def test_steps_run_and_undone(self):
        before = self._counts()
        vals = {"move_type": "in_invoice", "journal_id": self.journal.id, "ref": "journey",
                "invoice_line_ids": [(0, 0, {"name": "journey", "quantity": 1, "price_unit": 121})]}
        outcomes = self.Move.backoffice_journeys([
            {"model": "account.move", "method": "backoffice_create_bill", "args": [[]],
             "kwargs": {"vals": vals, "attachment": {"name": "j.pdf", "datas": PDF}, "note": "journey note",
                        "author": {"email_from": "Ana <ana@example.com>"}}},
            {"model": "account.move", "method": "message_post", "args": [[{"$ref": 0}]],
             "kwargs": {"body": "journey comment", "message_type": "comment", "author_id": False, "email_from": "ana@example.com"}},
            {"model": "account.move", "method": "write", "args": [[{"$ref": 0}], {"no_such_field": 1}], "kwargs": {}},
            {"model": "res.partner", "method": "write", "args": [[{"$ref": 2}], {"name": "x"}], "kwargs": {}},
        ])
        self.assertEqual([one["ok"] for one in outcomes], [True, True, False, False])
        self.assertIsInstance(outcomes[0]["result"], int)
        self.assertTrue(outcomes[3].get("skipped"))
        self.assertFalse(self.env["account.move"].search([("ref", "=", "journey")]))
        self.assertEqual(self._counts(), before)

    def test_refused_calls(self):
        with self.assertRaises(AccessError):
            self.Move.backoffice_journeys([{"model": "account.move", "method": "_post", "args": [[]], "kwargs": {}}])
        with self.assertRaises(UserError):
            self.Move.backoffice_journeys([{"model": "res.partner", "method": "read", "args": [[]], "kwargs": {}}] * 51)
        # The caller's own rights: a user who may not create moves sees its step refused, nothing else.
        sales = self._user("bo_test_journeys_sales", "sales_team.group_sale_salesman", email="s.journeys@example.com")
        outcomes = self.env["account.move"].with_user(sales).backoffice_journeys([
            {"model": "account.move", "method": "create", "args": [{"move_type": "in_invoice", "journal_id": self.journal.id}], "kwargs": {}},
        ])
        self.assertEqual((outcomes[0]["ok"], outcomes[0]["name"]), (False, "odoo.exceptions.AccessError"))
