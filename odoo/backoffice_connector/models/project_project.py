from odoo import api, models

from .res_company import JOURNAL_FIELDS, check_journal_company, journal_settings_fields


class ProjectProject(models.Model):
    """Per-project override of the company's journal settings."""

    _inherit = "project.project"

    _fields_spec = journal_settings_fields("company_id and [company_id] or allowed_company_ids")
    x_facturas_journal_id = _fields_spec["x_facturas_journal_id"]
    x_facturas_account = _fields_spec["x_facturas_account"]
    x_gastos_journal_id = _fields_spec["x_gastos_journal_id"]
    x_gastos_account = _fields_spec["x_gastos_account"]
    del _fields_spec

    @api.constrains("company_id", *JOURNAL_FIELDS)
    def _check_backoffice_journals_company(self):
        # A project without company may use any company's journals.
        check_journal_company(self, lambda project: project.company_id)
