"""The wordings of invoices printed in languages other than English, by role, as
:mod:`ingestion.invoices.vocab` reads them: header labels (:data:`LABEL_WORDINGS`, with the roles of
:data:`ingestion.invoices.vocab.LABELS`) and column headings (:data:`HEADING_WORDINGS`, those of
:data:`ingestion.invoices.vocab.HEADINGS`), one table per group of languages. A wording is written as printed; the
vocabulary compares it lower case without a trailing colon or full stop.

>>> [sorted(table) for table in HEADING_WORDINGS][-1]
['amount', 'code', 'description', 'other', 'quantity', 'unit_price']
"""

from __future__ import annotations

__all__ = ["HEADING_WORDINGS", "LABEL_WORDINGS"]

LABEL_WORDINGS: tuple[dict[str, tuple[str, ...]], ...] = (
    {  # German and Dutch invoices' own labels
        "invoice_number": ("Rechnungsnummer", "Rechnungsnr.", "Rechnung Nr.", "Rechnungs-Nr.", "Factuurnummer",
                           "Factuurnr.", "Factuur nr."),
        "invoice_date": ("Rechnungsdatum", "Datum", "Factuurdatum"),
        "customer_id": ("Kundennummer", "Kunden-Nr.", "Kundennr.", "Kd.-Nr.", "Debiteurnummer", "Debiteurnr.",
                        "Klantnummer", "Klantnr."),
        "subtotal": ("Zwischensumme", "Nettobetrag", "Summe netto", "Warenwert", "Subtotaal", "Totaal excl. BTW"),
        "tax": ("Mehrwertsteuer", "Umsatzsteuer"),  # MwSt., BTW: as TAXES composes them
        "total": ("Gesamtbetrag", "Rechnungsbetrag", "Endbetrag", "Summe brutto", "Zu zahlen", "Te betalen", "Totaal",
                  "Totaal incl. BTW"),
        "other": ("Fällig am", "Zahlungsziel", "Lieferdatum", "Bestellnummer", "USt-IdNr.", "Steuernummer",
                  "Uiterste betaaldatum", "Vervaldatum", "Betalingstermijn", "KvK", "Ordernummer"),
        "charge": ("Fracht", "Versandkosten", "Porto", "Verpackung", "Vracht", "Verzendkosten"),
    },
    {  # French, Norwegian and Swedish invoices' own labels, and what a till prints beside its totals
        "invoice_number": ("Facture n°", "N° facture", "N° de facture", "Numéro de facture", "Ticket n°",
                           "Avoir n°", "N° avoir", "Fakturanr.", "Fakturanummer", "Kvitteringsnr.", "Kvittonr.",
                           "Kreditnotanr.", "Kreditfakturanr.", "Beleg-Nr.", "Bon-Nr.", "Ticketnr."),
        "invoice_date": ("Date de facture", "Date facture", "Date d'émission", "Fakturadato", "Dato", "Fakturadatum",
                         "Date de facturation"),
        "customer_id": ("N° client", "Code client", "Numéro client", "Réf. client", "Kundenr.", "Kundenummer",
                        "Kundnr.", "Kundnummer"),
        "country": ("Pays", "Land", "Code pays", "Landkode", "Landskod", "Ländercode", "Landcode"),
        "subtotal": ("Total HT", "Sous-total", "Sous-total HT", "Montant HT", "Total hors taxes", "Sum eks. mva",
                     "Sum ekskl. mva", "Netto", "Netto exkl. moms", "Summa exkl. moms", "Summa netto", "Nettobelopp",
                     "Zwischensumme netto", "Subtotaal excl. btw", "Montant total HT",
                     "Gesamtsumme netto", "Totalbeløp eks. MVA"),
        "tax": ("Montant TVA", "Total TVA", "Montant total de la TVA", "Montant de la TVA", "Summe Umsatzsteuer",
                "Totaal BTW", "Sum MVA"),  # TVA, MVA, Moms alone: as TAXES composes them
        "total": ("Total TTC", "Net à payer", "Net a payer", "Total à payer", "Montant TTC", "Totalt", "Å betale",
                  "Att betala", "Summa att betala", "Summe", "Gesamt", "Zu zahlen", "Montant total TTC",
                  "Montant à payer", "Gesamtsumme brutto", "Fälliger Betrag", "Te betalen bedrag",
                  "Totalbeløp inkl. MVA"),
        "other": ("Date d'échéance", "Échéance", "N° TVA", "SIRET", "N° de commande", "Date de commande",
                  "Commande du", "Commande n°", "Montant payé", "Mode de paiement", "Moyen de paiement",
                  "Forfallsdato", "Org.nr.", "Förfallodatum", "Momsreg.nr.", "Bankgiro", "Plusgiro",
                  # a till's time, till and cashier, and the payment tendered and the change given back
                  "Time", "Till", "Cashier", "Operator", "Heure", "Caisse", "Caissier", "Uhrzeit", "Zeit", "Kasse",
                  "Kassierer", "Bediener", "Kassa", "Kassier", "Kassör", "Tid", "Kl.", "Cash", "Cash tendered",
                  "Tendered", "Change", "Change due", "Refund cash", "Espèces", "Rendu", "Monnaie rendue",
                  "Carte bancaire", "Gegeben", "Gegeben bar", "Rückgeld", "Contant", "Wisselgeld", "Kontant", "Veksel",
                  "Växel", "Tillbaka", "Bankkort"),
    },
    {  # Spanish and Portuguese invoices' own labels
        "invoice_number": ("Factura nº", "Factura n.º", "Nº factura", "N.º factura", "Nº de factura",
                           "N.º de factura", "Número de factura", "Num. factura", "Factura número", "Fatura nº",
                           "Fatura n.º", "Factura-recibo n.º", "Fatura-recibo n.º", "Nº fatura", "N.º fatura",
                           "Número da fatura", "Número de fatura", "Nº documento", "N.º documento", "Número",
                           "Nº abono", "Nº rectificativa", "Nota de crédito n.º", "Factura rectificativa nº"),
        "invoice_date": ("Fecha", "Fecha factura", "Fecha de factura", "Fecha de emisión", "Fecha emisión",
                         "Fecha de expedición", "Fecha expedición", "Data de emissão", "Data emissão",
                         "Data da fatura", "Data do documento"),
        "customer_id": ("Cliente", "Nº cliente", "N.º cliente", "Nº de cliente", "N.º de cliente",
                        "Código cliente", "Cód. cliente", "Cod. cliente", "Código de cliente", "Número de cliente",
                        "Código do cliente", "Cliente nº", "Cliente n.º"),
        "country": ("País", "País de destino", "País destino"),
        "subtotal": ("Base imponible", "Total base imponible", "Importe neto", "Total neto", "Total ilíquido",
                     "Base tributável", "Incidência", "Base de incidência", "Total sem IVA", "Valor sem IVA",
                     "Total sin IVA", "Subtotal sin IVA", "Total mercadoria", "Soma"),
        "tax": ("IVA", "I.V.A.", "Cuota IVA", "Cuota de IVA", "Cuota I.V.A.", "Importe IVA", "Total IVA", "Valor IVA",
                "Valor do IVA", "Imposto"),
        "total": ("Total factura", "Total a pagar", "Importe total", "Total documento", "Total del documento",
                  "Total do documento", "Total com IVA", "Total con IVA", "Valor total", "Total geral",
                  "Total fatura"),
        "other": ("Fecha de vencimiento", "Vencimiento", "Forma de pago", "Condiciones de pago", "NIF", "CIF",
                  "N.I.F.", "C.I.F.", "NIF/CIF", "Nº pedido", "Pedido", "Fecha de pedido", "Albarán", "Nº albarán",
                  "Teléfono", "Fecha de operación", "Data de vencimento", "Vencimento", "Contribuinte",
                  "Nº contribuinte", "N.º contribuinte", "NIF/NIPC", "Condições de pagamento", "Encomenda",
                  "Requisição", "ATCUD", "Telefone", "Data de entrega", "Fecha de entrega", "Fecha vencimiento",
                  "Vencimientos", "Data venc.",
                  # a discount or the sum before it, and a page's running sum (Portugal's "Transporte"): no total
                  "Descuento", "Dto. P.P.", "Dto. pronto pago", "Desc. comercial", "Total descontos", "Importe bruto",
                  "Total bruto", "Suma anterior", "Suma y sigue", "A transportar", "Transporte"),
        "currency": ("Divisa", "Moneda", "Moeda"),
        "charge": ("Portes", "Gastos de envío", "Envío"),
    },
    {  # Italian invoices' own labels
        "invoice_number": ("Fattura n.", "Fattura nr.", "Fattura numero", "Numero fattura", "N. fattura",
                           "Nr. fattura", "Numero documento", "N. documento", "Documento n.", "Numero",
                           "Nota di credito n."),
        "invoice_date": ("Data", "Data fattura", "Data documento", "Data emissione", "Data di emissione"),
        "customer_id": ("Cliente", "Codice cliente", "Cod. cliente", "Cliente n.", "N. cliente", "Cod. cli."),
        "country": ("Paese", "Nazione"),
        "subtotal": ("Imponibile", "Totale imponibile", "Totale merce", "Totale netto", "Imponibile totale"),
        "tax": ("Imposta", "Totale IVA", "Importo IVA", "Totale imposta"),
        "total": ("Totale", "Totale fattura", "Totale documento", "Totale da pagare", "Netto a pagare",
                  "Totale a pagare"),
        "other": ("Scadenza", "Data scadenza", "Pagamento", "Modalità di pagamento", "Condizioni di pagamento",
                  "Partita IVA", "P.IVA", "P. IVA", "Codice fiscale", "C.F.", "Ordine n.", "DDT", "Banca",
                  "Codice destinatario", "PEC", "Telefono", "Scadenze", "Sconto", "Riporto", "A riportare"),
        "currency": ("Valuta",),
        "charge": ("Spese di trasporto", "Trasporto", "Spese di spedizione"),
    },
    {  # Polish invoices' own labels
        "invoice_number": ("Faktura nr", "Faktura VAT nr", "Nr faktury", "Numer faktury", "Faktura korygująca nr",
                           "Numer"),
        "invoice_date": ("Data wystawienia", "Data faktury"),
        "customer_id": ("Nr klienta", "Numer klienta", "Kod klienta", "ID klienta", "Id nabywcy", "Kod kontrahenta",
                        "Nr kontrahenta"),
        "country": ("Kraj",),
        "subtotal": ("Razem netto", "Wartość netto", "Suma netto"),
        "tax": ("Kwota VAT", "Razem VAT", "Wartość VAT", "Suma VAT"),
        "total": ("Razem brutto", "Wartość brutto", "Suma brutto", "Do zapłaty", "Razem do zapłaty",
                  "Kwota korekty", "Razem korekta", "Wartość korekty"),
        "other": ("Data sprzedaży", "Data dostawy", "Termin płatności", "Sposób płatności", "Forma płatności",
                  "NIP", "REGON", "Nr konta", "Konto", "Bank", "Zapłacono", "Wpłacono", "Miejsce wystawienia",
                  "Telefon",
                  "Termin zapłaty", "Data dokonania dostawy", "Z przeniesienia", "Do przeniesienia", "Rabat"),
        "currency": ("Waluta",),
        "charge": ("Transport", "Koszty wysyłki", "Wysyłka"),
    },
)
"""Header labels, by role, of invoices in other languages."""

HEADING_WORDINGS: tuple[dict[str, tuple[str, ...]], ...] = (
    {  # German and Dutch invoices' own headings
        "code": ("Artikelnummer", "Artikelnr.", "Art.-Nr.", "Art.nr.", "Artikelcode"),
        "description": ("Artikel", "Bezeichnung", "Artikelbezeichnung", "Beschreibung", "Omschrijving"),
        "quantity": ("Menge", "Anzahl", "Aantal"),
        "unit_price": ("Einzelpreis", "Stückpreis", "Preis", "Prijs", "Prijs per stuk", "Eenheidsprijs"),
        "amount": ("Betrag", "Gesamtpreis", "Gesamt", "Bedrag", "Regeltotaal", "Totaal"),
    },
    {  # French, Norwegian and Swedish headings
        "code": ("Réf.", "Référence", "Code article", "Varenr.", "Varenummer", "Artikelnr", "Art.nr",
                 "Référence vendeur", "Référence article", "Artikelnummer verkoper"),
        "description": ("Désignation", "Libellé", "Beskrivelse", "Varebeskrivelse", "Benämning", "Beskrivning",
                        "Varenavn", "Artikelnamn", "Artikelname", "Artikelnaam", "Nom de l'article"),
        "quantity": ("Qté", "Quantité", "Antall", "Ant.", "Antal", "Quantité facturée"),
        "unit_price": ("Prix unitaire", "P.U.", "PU HT", "Prix unitaire HT", "Prix", "Enhetspris", "Pris", "À-pris",
                       "A-pris", "Styckpris", "Nettopris", "Nettopreis", "Nettoprijs", "Prix net", "Prix unitaire net",
                       "Netto prijs"),
        "amount": ("Montant", "Montant HT", "Total HT", "Beløp", "Belopp", "Summa", "Nettobeløp", "Nettobelopp",
                   "Nettobetrag", "Nettobedrag", "Montant net", "Montant net de la ligne", "Regelbedrag"),
    },
    {  # Spanish and Portuguese headings
        "code": ("Código", "Cód.", "Referencia", "Referência", "Artigo", "Artículo", "Código artículo",
                 "Cód. artigo"),
        "description": ("Descripción", "Concepto", "Denominación", "Descrição", "Designação", "Produto",
                        "Producto"),
        "quantity": ("Cantidad", "Cant.", "Uds.", "Unidades", "Qtd.", "Quant.", "Quantidade"),
        "unit_price": ("Precio", "Precio unitario", "Precio unit.", "P. unitario", "Precio/ud.", "Preço",
                       "Preço unitário", "Preço unit.", "Pr. unitário", "P. unit.", "Precio ud."),
        "amount": ("Importe", "Importe neto", "Valor", "Valor líquido", "Total línea", "Neto"),
        "other": ("Dto.", "Dto. %", "% Dto.", "Descuento", "Desconto", "% Desc.", "% IVA", "IVA %",
                  "Tipo IVA", "Taxa IVA", "Unidad", "Unid.", "Un."),
    },
    {  # Italian headings
        "code": ("Codice", "Cod.", "Codice articolo", "Cod. art.", "Cod. articolo"),
        "description": ("Descrizione", "Articolo", "Descrizione articolo"),
        "quantity": ("Quantità", "Q.tà", "Qtà", "Quant"),
        "unit_price": ("Prezzo", "Prezzo unitario", "Prezzo unit.", "Prezzo un.", "P. unitario", "Prezzo netto"),
        "amount": ("Importo", "Totale", "Importo netto", "Totale riga", "Prezzo totale"),
        "other": ("Sconto", "Sconti", "Sc. %", "Sconto %", "Sconto o magg.", "U.M.", "UM", "Aliquota", "Aliquota IVA",
                  "Cod. IVA", "% IVA", "%IVA", "IVA", "Riga"),
    },
    {  # Polish headings
        "code": ("Kod", "Symbol", "Indeks", "Kod towaru", "Nr katalogowy"),  # (English "Index" beside them)
        "description": ("Nazwa", "Nazwa towaru", "Nazwa towaru lub usługi", "Nazwa towaru/usługi", "Towar/usługa",
                        "Opis", "Nazwa produktu"),
        "quantity": ("Ilość", "Ilość szt."),
        "unit_price": ("Cena", "Cena netto", "Cena jedn.", "Cena jedn. netto", "Cena jednostkowa",
                       "Cena jednostkowa netto"),
        "amount": ("Wartość netto", "Wartość"),
        "other": ("Lp.", "J.m.", "Jm.", "Jedn.", "Stawka VAT", "Stawka", "Kwota VAT", "Wartość VAT",
                  "Wartość brutto", "Rabat", "Rabat %", "PKWiU"),
    },
)
"""Column headings, by role, of invoices in other languages."""
