from odoo.tests.common import TransactionCase, new_test_user


class BackofficeCase(TransactionCase):
    """Shared fixtures. Nothing here relies on demo data or on a chart of accounts."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.company = cls.env.company
        cls.other_company = cls.env["res.company"].create({"name": "Backoffice test company B"})
        cls.journal = cls._make_purchase_journal(cls.company, "BOXP")

    @classmethod
    def _make_purchase_journal(cls, company, code):
        """A purchase journal of ``company`` with its own default expense account, or None if
        this database cannot have one (then the tests needing it are skipped)."""
        try:
            with cls.env.cr.savepoint():
                # with_company: account.account has company_id up to 17, company_ids from 18.
                account = cls.env["account.account"].with_company(company).create({
                    "name": "Backoffice test expenses", "code": code + "629", "account_type": "expense",
                })
                return cls.env["account.journal"].create({
                    "name": "Backoffice test purchases %s" % code, "code": code, "type": "purchase",
                    "company_id": company.id, "default_account_id": account.id,
                })
        except Exception:  # noqa: BLE001 - any refusal means "no journal here"
            return None

    def _require(self, journal):
        if not journal:
            self.skipTest("no purchase journal could be created in this database")
        return journal

    @classmethod
    def _user(cls, login, groups, company=None, **kw):
        company = company or cls.company
        return new_test_user(
            cls.env, login=login, groups=groups, company_id=company.id, company_ids=[(6, 0, company.ids)], **kw,
        )
