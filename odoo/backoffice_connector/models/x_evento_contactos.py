from lxml.builder import E

from odoo import api, fields, models

from .x_tipo_inversor import window_action


class EventoContactos(models.Model):
    """A contact list gathered at an event.

    A contact created from the console may point at the list it came from
    (res.partner.from_event_assistant); the list's tags are the categories the
    console proposes for such contacts.
    """

    _name = "x_evento_contactos"
    _description = "Event contact list"
    _rec_name = "x_name"
    _order = "id desc"

    x_name = fields.Char(string="Name")
    event_id = fields.Many2one("event.event", string="Event", required=True, ondelete="cascade", index=True)
    x_tag_ids = fields.Many2many(
        "res.partner.category",
        "x_evento_contactos_category_rel",
        "evento_id",
        "category_id",
        string="Contact tags",
    )

    @api.model
    def _backoffice_list_arch(self, tag):
        return getattr(E, tag)(
            E.field(name="x_name"),
            E.field(name="event_id"),
            E.field(name="x_tag_ids", widget="many2many_tags"),
            string=self._description,
        )

    @api.model
    def _get_default_tree_view(self):
        return self._backoffice_list_arch("tree")

    @api.model
    def _get_default_list_view(self):
        return self._backoffice_list_arch("list")

    @api.model
    def backoffice_action_open(self):
        return window_action(self, "Event contact lists")
