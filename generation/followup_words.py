"""The closed word classes the follow-up rules read questions with (there is no tagger: these lists are the grammar).

Function words (question words, auxiliaries, prepositions, determiners, conjunctions, pronouns), verbs that are
rarely nouns (:data:`VERBS`) and verbs that are also nouns (:data:`DUAL`), and the small semantic classes the rules
need: nouns naming the document (:data:`DOC_NOUNS`), nouns generic enough that "this X" means the previous topic
(:data:`GENERIC_NOUNS`), verbs whose subject "they" is the document's authors or filer (:data:`AGENT_VERBS`),
verbs a document is the subject of (:data:`DOC_VERBS`), and the words of an empty "it" ("is it possible to ...").

>>> "update" in DUAL and "update" not in VERBS
True
>>> sorted(verb_forms("carry match"))
['carries', 'carry', 'match', 'matches']
"""

from __future__ import annotations

__all__ = [
    "WH", "DO_MODAL", "AUX", "COPULA", "PREP", "ARTICLES", "DETS", "CONJ", "SUBORDINATORS", "PRON", "SUBJECT_PRON",
    "OTHER", "FUNCTION", "verb_forms", "VERBS", "DUAL", "SAY_VERBS", "AGENT_VERBS", "DOC_VERBS", "ORDINALS",
    "NUMBER_WORDS", "DOC_NOUNS", "DOC_ATTRIBUTES", "TIME_NOUNS", "PEOPLE_NOUNS", "GENERIC_NOUNS", "EXPLETIVE_ADJ",
    "EXPLETIVE_VERBS", "PREDICATE_ADJ", "COMPLEMENT", "STATEMENT", "NOT_ADVERBS",
]

WH = frozenset("what which who whom whose when where why how what's whats who's where's how's".split())
DO_MODAL = frozenset("do does did don't doesn't didn't can could should would will shall may might must can't "
                     "couldn't shouldn't wouldn't won't".split())
AUX = DO_MODAL | frozenset("is are was were be been being am has have had isn't aren't wasn't weren't hasn't "
                           "haven't hadn't".split())
COPULA = frozenset("is are was were isn't aren't wasn't weren't 's".split())
PREP = frozenset("of in on at for with by from to into onto about over under between during without within against "
                 "across through after before than as per via among beyond toward towards upon behind below above "
                 "besides despite except like unlike along around throughout until".split())
ARTICLES = frozenset(("the", "a", "an"))
DETS = frozenset("this that these those its their his her our your my each every all some any no both either "
                 "neither such another other most many much few several".split())
CONJ = frozenset("and or but nor so yet then if whether because while although though unless since once whereas "
                 "plus".split())
# Words that open a subordinate clause when a subject and a verb follow ("before they apply the softmax").
SUBORDINATORS = frozenset("if whether because while although though unless since once whereas when where before "
                          "after until as".split())
PRON = frozenset("it it's its they them their theirs he she him her his hers we us our you your i me my itself "
                 "themselves one ones there here someone something anything everything nothing anyone everyone "
                 "that's".split())
SUBJECT_PRON = frozenset("it it's they he she we you i".split())
OTHER = frozenset("not also only just very more most much many few fewer less least too still ever even else really "
                  "exactly usually typically often always never already again well better best same own instead up "
                  "down out off away back please roughly approximately actually generally currently formally "
                  "exist".split())
FUNCTION = WH | AUX | PREP | ARTICLES | DETS | CONJ | PRON | OTHER


def verb_forms(bases: str) -> frozenset[str]:
    """Each base verb of the space-separated ``bases`` and its third-person form ("carry" -> "carries")."""
    forms = set()
    for v in bases.split():
        forms.add(v)
        if v.endswith(("s", "sh", "ch", "x", "o")):
            forms.add(v + "es")
        elif v.endswith("y") and v[-2:-1] not in "aeiou":
            forms.add(v[:-1] + "ies")
        else:
            forms.add(v + "s")
    return frozenset(forms)


# Verbs that are rarely nouns: never part of a noun phrase.
VERBS = verb_forms(
    "mean stand compare relate differ affect define describe say require get achieve perform take contain cover "
    "need produce make handle cope compute apply prevent improve reduce propose introduce address show prove "
    "converge behave include consist depend come go happen look beat outperform recommend suggest exist become "
    "mitigate manage ensure find give explain solve deal allow let keep know think assess combine connect "
    "attend predict generate encode decode translate evaluate provide represent capture lead cause add remove "
    "replace choose select pick adapt adjust initialize initialise optimize optimise minimize minimise maximize "
    "diverge fail succeed rely refer vary try ask want hold lose win cite write read build invent create develop "
    "release denote correspond comprise divide multiply normalize normalise prevent avoid guarantee assume imply "
    "claim argue note observe see consider treat view play stop learn help invest spend declare repurchase "
    "recognize recognise earn follow carry send parse install uninstall modify tailor accept decide justify deploy "
    "intend announce acquire buy sell pay expect hire identify disclose"
) | frozenset("made done written known given taken found built chosen shown seen came wrote got led held began "
              "became brought thought left meant sent spent told went ran won lost did paid sold bought fell rose "
              "grew".split())
# Verbs that are also common nouns ("the update rule", "its memory cost"): a verb only where a verb is expected.
DUAL = verb_forms("use work run cost set update decay change increase start end limit bound drop mask call "
                  "support train test report design form state score rank map measure average sum scale stack "
                  "fit store schedule search process control matter mention estimate match scan reach plan face "
                  "rise decline complete document fall")
SAY_VERBS = verb_forms("say state claim argue note show prove suggest find mean imply assume ensure guarantee "
                       "report observe think know") | frozenset("said stated claimed argued noted showed shown "
                                                                "proved proven suggested found meant implied "
                                                                "assumed ensured guaranteed reported observed "
                                                                "thought known".split())
# "they <verb>" with one of these, and no plural noun before: the document's authors (or the filing company).
AGENT_VERBS = verb_forms("use train propose report choose pick evaluate introduce suggest recommend conclude claim "
                         "obtain observe employ select spend invest pay buy repurchase acquire declare announce "
                         "expect plan intend argue write say note adopt tune derive implement find experiment hire "
                         "sell disclose") | frozenset("used trained proposed reported chose chosen picked evaluated "
                                                      "introduced suggested recommended concluded claimed obtained "
                                                      "observed employed selected spent invested paid bought "
                                                      "repurchased acquired declared announced expected planned "
                                                      "intended argued wrote written said noted adopted tuned "
                                                      "derived implemented found hired sold disclosed".split())
# "what does it say about ...?": "it" may be the document itself.
DOC_VERBS = verb_forms("say state define describe recommend require specify mention discuss propose")

ORDINALS = frozenset("first second third fourth fifth sixth seventh eighth ninth tenth last final next other "
                     "previous former latter".split())
NUMBER_WORDS = frozenset("two three four five six seven eight nine ten eleven twelve several multiple both".split())
# Nouns naming the document or its authors: "this paper" is the document, not the previous topic.
DOC_NOUNS = frozenset("paper papers document documents framework report work study article publication text pdf "
                      "book chapter section sections author authors writers playbook guide guidance specification "
                      "specifications spec standard filing form 10-q 10-k appendix annex manual handbook".split())
# What a question asks about the document itself: "what version of ... is this?".
DOC_ATTRIBUTES = frozenset("version versions edition revision release draft kind type sort date".split())
# "this quarter", "this year": the period the document reports on.
TIME_NOUNS = frozenset("quarter quarters year years month months week period fiscal".split())
# Nouns a singular "they"/"their" can stand for ("an organisation ... their risk tolerance").
PEOPLE_NOUNS = frozenset("organisation organisations organization organizations company companies firm firms user "
                         "users developer developers team teams person people actor actors entity entities business "
                         "businesses board government agency community group management committee staff author "
                         "authors applicant registrant reader readers".split())
# Nouns general enough that "this X" means the previous topic, whatever X is.
GENERIC_NOUNS = frozenset("method methods approach approaches technique techniques algorithm algorithms optimizer "
                          "optimizers optimiser optimisers model models architecture architectures mechanism "
                          "mechanisms function functions thing things idea ideas concept concepts term terms process "
                          "processes variant variants component components procedure procedures strategy strategies "
                          "scheme schemes system systems tool tools metric metrics property properties feature "
                          "features trick tricks step steps rule rules operation operations module modules category "
                          "categories characteristic characteristics value values parameter parameters "
                          "hyperparameter hyperparameters setting settings definition definitions principle "
                          "principles practice practices one ones option options idea aspect aspects".split())
EXPLETIVE_ADJ = frozenset("possible necessary true better best worth ok okay advisable recommended required mandatory "
                          "important useful common safe hard difficult easy feasible likely fair reasonable wise "
                          "enough clear known true".split())
EXPLETIVE_VERBS = frozenset("take takes took matter matters cost costs help helps pay pays make makes mean "
                            "means".split())
# Adjectives that end a noun phrase when they follow one: "are these values good ...", "is the optimizer stable".
PREDICATE_ADJ = frozenset("good bad better worse true false possible necessary important useful enough sufficient "
                          "faster slower larger smaller bigger different similar correct wrong mandatory optional "
                          "required stable robust efficient effective accurate expensive cheap cheaper "
                          "impractical practical feasible infeasible invariant sparse convertible".split())
COMPLEMENT = frozenset(("to", "that", "whether", "if", "for"))
STATEMENT = frozenset("true so right correct wrong the case accurate".split())  # "is that true?" judges the answer
NOT_ADVERBS = frozenset("family anomaly assembly supply reply early daily weekly monthly quarterly yearly "
                        "italy july".split())
