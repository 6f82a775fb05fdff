from lxml import etree
from psycopg2 import IntegrityError

from odoo import release
from odoo.tests import tagged
from odoo.tools import mute_logger

from .common import BackofficeCase

# 16/17 call the list view 'tree', 18+ 'list'.
LIST = "list" if release.version_info[0] >= 18 else "tree"


@tagged("post_install", "-at_install")
class TestNewModels(BackofficeCase):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.event = cls.env["event.event"].create({
            "name": "Backoffice test event", "date_begin": "2030-01-01 09:00:00", "date_end": "2030-01-01 18:00:00",
        })
        cls.tag = cls.env["res.partner.category"].create({"name": "Backoffice test tag"})

    def test_tipo_inversor_name_and_order(self):
        Tipo = self.env["x_tipo_inversor"]
        self.assertEqual((Tipo._rec_name, Tipo._order), ("x_name", "x_name"))
        types = Tipo.create([
            {"x_name": "Zeta fund", "x_studio_tipo_inversor_descripcion": "Fund"},
            {"x_name": "Business angel"},
            {"x_name": "Aceleradora"},
        ])
        found = Tipo.search([("id", "in", types.ids)])
        self.assertEqual(found.mapped("x_name"), ["Aceleradora", "Business angel", "Zeta fund"])
        self.assertEqual(types[0].display_name, "Zeta fund")
        self.assertEqual(
            [r[0] for r in Tipo.name_search("Business", [("id", "in", types.ids)])], [types[1].id]
        )
        # The console's own call: search_read ordered by x_name.
        rows = Tipo.search_read([("id", "in", types.ids)], ["x_name"], order="x_name")
        self.assertEqual([r["x_name"] for r in rows], ["Aceleradora", "Business angel", "Zeta fund"])

    @mute_logger("odoo.sql_db")
    def test_tipo_inversor_name_required(self):
        self.assertTrue(self.env["x_tipo_inversor"]._fields["x_name"].required)
        with self.assertRaises(IntegrityError):
            self.env["x_tipo_inversor"].create({"x_studio_tipo_inversor_descripcion": "No name"})
            self.env.flush_all()

    def test_evento_contactos(self):
        Lists = self.env["x_evento_contactos"]
        self.assertEqual((Lists._rec_name, Lists._order), ("x_name", "id desc"))
        first = Lists.create({"x_name": "Stand A", "event_id": self.event.id, "x_tag_ids": [(6, 0, self.tag.ids)]})
        second = Lists.create({"x_name": "Stand B", "event_id": self.event.id})
        self.assertEqual(first.display_name, "Stand A")
        self.assertEqual(first.x_tag_ids, self.tag)
        self.assertEqual(Lists.search([("id", "in", (first | second).ids)]), second | first)
        self.assertEqual(Lists.search([("id", "in", (first | second).ids)]).ids, [second.id, first.id])

    @mute_logger("odoo.sql_db")
    def test_evento_contactos_event_required(self):
        self.assertTrue(self.env["x_evento_contactos"]._fields["event_id"].required)
        with self.assertRaises(IntegrityError):
            self.env["x_evento_contactos"].create({"x_name": "No event"})
            self.env.flush_all()

    def test_partner_links(self):
        """Round trip of the contact fields, and what happens when their targets are deleted."""
        tipos = self.env["x_tipo_inversor"].create([{"x_name": "Family office"}, {"x_name": "Corporate"}])
        lst = self.env["x_evento_contactos"].create({"x_name": "Stand C", "event_id": self.event.id})
        employee = self.env["hr.employee"].create({"name": "Backoffice test owner"})
        partner = self.env["res.partner"].create({
            "name": "Backoffice test contact", "x_studio_owner_employee": employee.id,
            "x_studio_tipo_inversor": [(6, 0, tipos.ids)], "from_event_assistant": lst.id,
            "x_notes": "met at the stand",
        })
        self.assertEqual(partner.x_studio_owner_employee, employee)
        self.assertEqual(partner.x_studio_tipo_inversor, tipos)
        self.assertEqual(partner.from_event_assistant, lst)
        self.assertEqual(partner.x_notes, "met at the stand")
        # The relation table is the one the console (and a former Studio setup) names.
        self.env.flush_all()
        self.env.cr.execute(
            "SELECT x_tipo_inversor_id FROM x_res_partner_x_tipo_inversor_rel WHERE res_partner_id = %s", [partner.id])
        self.assertEqual(sorted(r[0] for r in self.env.cr.fetchall()), sorted(tipos.ids))
        # ondelete: set null for the list and the employee, the event's deletion takes its lists.
        lst2 = self.env["x_evento_contactos"].create({"x_name": "Stand D", "event_id": self.event.id})
        lst.unlink()
        employee.unlink()
        self.assertFalse(partner.from_event_assistant)
        self.assertFalse(partner.x_studio_owner_employee)
        self.event.unlink()
        self.assertFalse(lst2.exists())

    def test_partner_submission_key_unique(self):
        Partner = self.env["res.partner"]
        Partner.create([{"name": "No key 1"}, {"name": "No key 2"}])  # no key: not constrained
        Partner.create({"name": "Keyed", "x_backoffice_key": "bo-test-key-1"})
        with self.assertRaises(IntegrityError), mute_logger("odoo.sql_db"):
            Partner.create({"name": "Keyed again", "x_backoffice_key": "bo-test-key-1"})
            self.env.flush_all()

    def test_sale_order_uploaded_by(self):
        partner = self.env["res.partner"].create({"name": "Backoffice test customer"})
        order = self.env["sale.order"].create({
            "partner_id": partner.id, "x_uploaded_by": "sales@example.com", "x_backoffice_key": "bo-test-order",
        })
        self.assertEqual(order.read(["x_uploaded_by"])[0]["x_uploaded_by"], "sales@example.com")
        copy = order.copy()
        self.assertFalse(copy.x_uploaded_by)
        self.assertFalse(copy.x_backoffice_key)
        with self.assertRaises(IntegrityError), mute_logger("odoo.sql_db"):
            self.env["sale.order"].create({"partner_id": partner.id, "x_backoffice_key": "bo-test-order"})
            self.env.flush_all()


@tagged("post_install", "-at_install")
class TestListMixin(BackofficeCase):
    """backoffice.list.mixin: generated list views and the menus' server actions, for 16 to 19."""

    def _columns(self, arch):
        return [node.get("name") for node in arch.iter("field")]

    def test_default_list_arch(self):
        for model, columns, editable in (
            ("x_tipo_inversor", ["x_name", "x_studio_tipo_inversor_descripcion"], "bottom"),
            ("x_evento_contactos", ["x_name", "event_id", "x_tag_ids"], None),
        ):
            Model = self.env[model]
            for tag in ("tree", "list"):
                arch = Model._backoffice_list_arch(tag)
                self.assertEqual(arch.tag, tag)
                self.assertEqual(self._columns(arch), columns)
                self.assertEqual(arch.get("editable"), editable)
                self.assertEqual(arch.get("string"), Model._description)
            self.assertEqual(Model._get_default_tree_view().tag, "tree")
            self.assertEqual(Model._get_default_list_view().tag, "list")
        tags = self.env["x_evento_contactos"]._backoffice_list_arch("tree").xpath("//field[@name='x_tag_ids']")
        self.assertEqual(tags[0].get("widget"), "many2many_tags")

    def test_views_load(self):
        """The running Odoo serves a list (generated), form and search view for both models."""
        for model in ("x_tipo_inversor", "x_evento_contactos"):
            views = self.env[model].get_views([(False, LIST), (False, "form"), (False, "search")])["views"]
            self.assertEqual(set(views), {LIST, "form", "search"})
            arch = etree.fromstring(views[LIST]["arch"])
            self.assertIn("x_name", self._columns(arch))

    def test_action_open(self):
        for model, name in (("x_tipo_inversor", "Investor types"), ("x_evento_contactos", "Event contact lists")):
            action = self.env[model].backoffice_action_open()
            self.assertEqual(action["type"], "ir.actions.act_window")
            self.assertEqual(action["res_model"], model)
            self.assertEqual(action["name"], name)
            self.assertEqual(action["view_mode"], "%s,form" % LIST)
            self.assertEqual(action["views"], [(False, LIST), (False, "form")])

    def test_menus_run_server_actions(self):
        config = self.env.ref("contacts.res_partner_menu_config")
        for model, xmlid in (("x_tipo_inversor", "x_tipo_inversor"), ("x_evento_contactos", "x_evento_contactos")):
            server_action = self.env.ref("backoffice_connector.%s_action" % xmlid)
            self.assertEqual(server_action._name, "ir.actions.server")
            menu = self.env.ref("backoffice_connector.menu_%s" % xmlid)
            self.assertEqual(menu.parent_id, config)
            self.assertEqual(menu.action, server_action)
            result = server_action.run()
            self.assertEqual(result["type"], "ir.actions.act_window")
            self.assertEqual(result["res_model"], model)
            self.assertIn(LIST, result["view_mode"])


@tagged("post_install", "-at_install")
class TestViewsAndAccess(BackofficeCase):

    def test_backoffice_pages(self):
        """The inherited forms show a Backoffice page with the module's fields."""
        for model, view, names in (
            ("res.company", "base.view_company_form", ["x_facturas_journal_id", "x_gastos_account"]),
            ("project.project", "project.edit_project", ["x_facturas_journal_id", "x_gastos_account"]),
            ("account.move", "account.view_move_form", ["pnt_account_move_team_manager_validate", "x_uploaded_by"]),
            ("sale.order", "sale.view_order_form", ["x_uploaded_by"]),
            ("res.partner", "base.view_partner_form", ["x_studio_tipo_inversor", "from_event_assistant", "x_notes"]),
        ):
            with self.subTest(view=view):
                arch = etree.fromstring(self.env[model].get_view(self.env.ref(view).id, "form")["arch"])
                page = arch.xpath("//page[@name='backoffice']")
                self.assertTrue(page)
                page_fields = {node.get("name") for node in page[0].iter("field")}
                self.assertTrue(set(names) <= page_fields, "%s not in %s" % (names, page_fields))

    def test_access_rights(self):
        """Internal users read; managers create and edit (no delete); settings admins do everything."""
        users = {
            "user": self._user("bo_test_user", "base.group_user"),
            "sale_manager": self._user("bo_test_sale_mgr", "sales_team.group_sale_manager"),
            "account_manager": self._user("bo_test_acc_mgr", "account.group_account_manager"),
            "event_manager": self._user("bo_test_event_mgr", "event.group_event_manager"),
            "system": self._user("bo_test_system", "base.group_system"),
        }
        expected = {
            # (model, who): allowed of read, write, create, unlink
            ("x_tipo_inversor", "user"): (True, False, False, False),
            ("x_tipo_inversor", "sale_manager"): (True, True, True, False),
            ("x_tipo_inversor", "account_manager"): (True, True, True, False),
            ("x_tipo_inversor", "system"): (True, True, True, True),
            ("x_evento_contactos", "user"): (True, False, False, False),
            ("x_evento_contactos", "event_manager"): (True, True, True, False),
            ("x_evento_contactos", "system"): (True, True, True, True),
        }
        for (model, who), allowed in expected.items():
            Access = self.env["ir.model.access"].with_user(users[who])
            got = tuple(bool(Access.check(model, mode, raise_exception=False))
                        for mode in ("read", "write", "create", "unlink"))
            self.assertEqual(got, allowed, "%s on %s" % (who, model))
