"""Every invoice family, by name: :data:`FAMILIES`, and :func:`layout` and :func:`vocabulary` for any of them.

The dev families ``dev-a`` to ``dev-e`` and ``held`` are in :mod:`evaluation.invoice_layouts`, ``dev-f`` (erp
systems' invoices) in :mod:`evaluation.invoice_dev_f`; ``held-b``, a second held-aside family, is
in :mod:`evaluation.invoice_held_b`, ``held-c``, a third held-aside family, in :mod:`evaluation.invoice_held_c`,
``held-d``, a fourth held-aside family, written apart from the reader, in :mod:`evaluation.invoice_held_d`, and
``held-e``, a fifth, also written apart from the reader, in :mod:`evaluation.invoice_held_e`, ``held-f`` and
``held-g``, a sixth and seventh, each written apart from the reader and from each other, in
:mod:`evaluation.invoice_held_f` and :mod:`evaluation.invoice_held_g`, and ``held-h``, an eighth (one ERP's forms in
seven markets), written apart from the reader and the others, in :mod:`evaluation.invoice_held_h`, and ``held-i``, a
ninth (the templates of online invoicing and small-business accounting apps), written apart from the reader and
the others, in :mod:`evaluation.invoice_held_i`, and ``held-j``, a tenth (line-printer output of old billing systems
and marketplaces' and web shops' order invoices), written apart from the reader and the others, in
:mod:`evaluation.invoice_held_j`, and ``held-k``, an eleventh (exporters' commercial and pro forma invoices and
spreadsheet-printed invoices), written apart from the reader and the others, in :mod:`evaluation.invoice_held_k`,
and ``held-l``, a twelfth (e-invoice visualisations and point-of-sale till invoices), written apart from the reader
and the others, in :mod:`evaluation.invoice_held_l`, and ``held-m``, a thirteenth (web shops' order invoices and
invoices typed into a word processor), written apart from the reader and the others, in
:mod:`evaluation.invoice_held_m`, and ``held-n``, a fourteenth (the invoicing programs of Spain, Italy, Portugal
and Poland), written apart from the reader and the others, in :mod:`evaluation.invoice_held_n`, and ``held-o``, a
fifteenth (India's GST tax invoices, Australia's and New Zealand's tax invoices, and US and Canadian wholesale
distributors' invoices), written apart from the reader and the others, in :mod:`evaluation.invoice_held_o`; all
import :mod:`evaluation.invoice_layouts`.
This module sits above them, so the layouts module needs no import of any held-aside one. No held-aside family is
to be looked at while developing the invoice reader (see :mod:`evaluation.invoice_layouts`).

>>> FAMILIES[-15:]  # doctest: +NORMALIZE_WHITESPACE
('held', 'held-b', 'held-c', 'held-d', 'held-e', 'held-f', 'held-g', 'held-h', 'held-i', 'held-j', 'held-k', 'held-l',
 'held-m', 'held-n', 'held-o')
>>> layout(7, "dev-a") == invoice_layouts.layout(7, "dev-a"), DEV_FAMILIES[-1]
(True, 'dev-f')
"""

from __future__ import annotations

from evaluation import invoice_layouts
from evaluation.invoice_dev_f import dev_f_layout, dev_f_vocabulary
from evaluation.invoice_held_b import held_b_layout, held_b_vocabulary
from evaluation.invoice_held_c import held_c_layout, held_c_vocabulary
from evaluation.invoice_held_d import held_d_layout, held_d_vocabulary
from evaluation.invoice_held_e import held_e_layout, held_e_vocabulary
from evaluation.invoice_held_f import held_f_layout, held_f_vocabulary
from evaluation.invoice_held_g import held_g_layout, held_g_vocabulary
from evaluation.invoice_held_h import held_h_layout, held_h_vocabulary
from evaluation.invoice_held_i import held_i_layout, held_i_vocabulary
from evaluation.invoice_held_j import held_j_layout, held_j_vocabulary
from evaluation.invoice_held_k import held_k_layout, held_k_vocabulary
from evaluation.invoice_held_l import held_l_layout, held_l_vocabulary
from evaluation.invoice_held_m import held_m_layout, held_m_vocabulary
from evaluation.invoice_held_n import held_n_layout, held_n_vocabulary
from evaluation.invoice_held_o import held_o_layout, held_o_vocabulary
from evaluation.invoice_layouts import Layout

__all__ = ["DEV_FAMILIES", "FAMILIES", "layout", "vocabulary"]

DEV_FAMILIES = (*invoice_layouts.DEV_FAMILIES, "dev-f")
FAMILIES = (*DEV_FAMILIES, "held", "held-b", "held-c", "held-d", "held-e", "held-f", "held-g", "held-h",
            "held-i", "held-j", "held-k", "held-l", "held-m", "held-n", "held-o")


_OWN = {"dev-f": (dev_f_layout, dev_f_vocabulary), "held-b": (held_b_layout, held_b_vocabulary),
        "held-c": (held_c_layout, held_c_vocabulary), "held-d": (held_d_layout, held_d_vocabulary),
        "held-e": (held_e_layout, held_e_vocabulary), "held-f": (held_f_layout, held_f_vocabulary),
        "held-g": (held_g_layout, held_g_vocabulary), "held-h": (held_h_layout, held_h_vocabulary),
        "held-i": (held_i_layout, held_i_vocabulary), "held-j": (held_j_layout, held_j_vocabulary),
        "held-k": (held_k_layout, held_k_vocabulary), "held-l": (held_l_layout, held_l_vocabulary),
        "held-m": (held_m_layout, held_m_vocabulary), "held-n": (held_n_layout, held_n_vocabulary),
        "held-o": (held_o_layout, held_o_vocabulary)}
"""The families written in modules of their own: each one's layout and vocabulary functions."""


def layout(seed: int, family: str) -> Layout:
    """The layout of ``family`` drawn from ``seed`` (the same pair always gives the same layout)."""
    if family in _OWN:
        return _OWN[family][0](seed)
    if family in invoice_layouts.FAMILIES:
        return invoice_layouts.layout(seed, family)
    raise ValueError(f"unknown family {family!r}; families: {', '.join(FAMILIES)}")


def vocabulary(family: str) -> set[str]:
    """Every title, label and heading wording ``family`` can print (lower case)."""
    if family in _OWN:
        return _OWN[family][1]()
    if family in invoice_layouts.FAMILIES:
        return invoice_layouts.vocabulary(family)
    raise ValueError(f"unknown family {family!r}; families: {', '.join(FAMILIES)}")
