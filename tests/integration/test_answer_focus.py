"""Near-miss questions on a filing, through the HTTP API (extractive): a question about something the document does
hold, but not where the answer would be ("net sales in India", "guidance for 2024", "how many units"), is declined
saying what is missing, while the question the table does answer is still answered from it."""

from __future__ import annotations

import pytest

from tests.integration.test_answer_quality import ask, markdown_client

FILLER = [
    "# Risk factors\n\nThe Company's results depend on the supply of components from a small number of vendors. "
    "Delays at any one of them can slow shipments for several weeks and raise the cost of what is shipped.",
    "# Competition\n\nThe markets for the Company's products are highly competitive. Competitors may cut prices or "
    "release products sooner, which can reduce demand for the Company's own products and services.",
    "# Legal proceedings\n\nThe Company is subject to claims that arise in the ordinary course of business. It does not "
    "expect the outcome of these claims to have a material effect on its financial condition.",
    "# Liquidity\n\nThe Company believes its cash, cash equivalents and marketable securities will be enough to meet "
    "its needs for working capital and capital expenditures over the next twelve months.",
    "# Employees\n\nThe Company relies on the skills of its staff. Hiring and keeping engineers is competitive, and the "
    "loss of key people could harm the business.",
    "# Properties\n\nThe Company owns its headquarters and leases offices, warehouses and data centres in several "
    "countries. It believes its facilities are suitable for its current needs.",
    "# Quality\n\nEngineering guidance documents are reviewed by the quality team each year, and suppliers are "
    "audited against them before they are approved.",
    "# Research\n\nResearch and development spending supports new features across the product lines and the "
    "services that connect them.",
    "# Seasonality\n\nDemand is usually highest in the holiday season, when the Company also builds up inventory "
    "ahead of new product launches.",
    "# Taxes\n\nThe effective tax rate depends on the mix of earnings between countries with different rates and on "
    "changes to tax law.",
    "# Currency\n\nA stronger dollar lowers the value of sales made in other currencies; the Company hedges part of "
    "this exposure with forward contracts.",
    "# Leases\n\nOperating lease costs are recognised evenly over the lease term, and variable payments are "
    "expensed when they are incurred.",
    "# Controls\n\nManagement evaluated the effectiveness of the disclosure controls and procedures and concluded that "
    "they were effective at a reasonable assurance level.",
]
PAGES = [
    "# Acme Corp\n\nQuarterly report for the quarter ended September 30, 2023. Acme Corp designs and sells widgets, "
    "tablets and the services that run on them.",
    "# Acme Corp condensed consolidated statements of operations\n\n(In millions)\n\n"
    "|(In millions)|Three months ended September 30, 2023|Three months ended September 30, 2022|\n|---|---|---|\n"
    "|Products|$ 41,200|$ 38,950|\n|Services|12,400|11,020|\n|Total net sales|$ 53,600|$ 49,970|",
    "# Products\n\nDuring the third quarter of 2023, the Company announced a new Widget Pro powered by the Acme M2 "
    "chip and a new Acme TV 4K. The Company sells its products in India and Brazil through resellers.",
    "# Debt\n\nThe Company's fixed-rate notes are repaid in instalments. The next instalment falls due in 2024 and "
    "the last one in 2031; interest is paid twice a year.",
    *FILLER,
]


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    with markdown_client(tmp_path_factory.mktemp("focus"), "acme-10q.md", PAGES) as client:
        yield client


def test_the_table_row_asked_for_is_answered_with_its_page(client):
    body = ask(client, "What were Acme's total net sales for the quarter ended September 30, 2023?")
    assert not body["abstained"], body["answer"]
    assert "53,600" in body["answer"] and 2 in {c["page"] for c in body["citations"]}


def test_a_place_no_answering_passage_names_is_declined(client):
    body = ask(client, "What were Acme's net sales in India for the quarter ended September 30, 2023?")
    assert body["abstained"] and body["confidence_level"] == "insufficient" and not body["citations"], body["answer"]
    assert "53,600" not in body["answer"]


def test_a_year_the_answer_does_not_name_is_declined(client):
    body = ask(client, "What net sales guidance did Acme provide for the full year 2024?")
    assert body["abstained"] and not body["citations"], body["answer"]


def test_a_product_name_with_digits_is_no_count(client):
    body = ask(client, "How many Widget Pro units did Acme sell in the third quarter of 2023?")
    assert body["abstained"] and not body["citations"], body["answer"]
    assert "M2" not in body["answer"] and "4K" not in body["answer"]


def test_a_lower_case_word_raised_by_the_search_is_no_name(client):
    # The search drops "In Acme's 10-Q," and capitalises what is left ("Combine ..."): that word is not a name the
    # answer must hold, so the question is answered as before.
    body = ask(client, "In Acme's 10-Q, combine the products and services lines: what were total net sales?")
    assert not body["abstained"], body["answer"]
    assert "53,600" in body["answer"]


def test_the_reason_names_what_no_passage_found_mentions():
    from generation.decision import Policy, decide

    decision = decide(Policy(), retrieval=0.7, support=None, expectation_kind="money", unmet=["India"])
    assert not decision.answer and decision.level == "insufficient"
    assert decision.reason == "no passage found on this question mentions \u201cIndia\u201d"
