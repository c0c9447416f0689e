"""held-k's wordings and places: the six sellers' locales, what an exporter's commercial invoice prints (in
English, whatever the exporter's country) and what a spreadsheet invoice template prints (in English, or in Dutch
for a Dutch seller).

A wording may hold ``{tax}`` (the locale's tax name: VAT, GST, BTW, Sales Tax), ``{rate}`` (its rate as printed,
20% or 8.875%) and ``{code}`` (the currency's ISO code); :func:`evaluation.invoice_held_k.fill` puts them in.
The sellers, consignees, forwarders and signatories are invented; every place name is a real port or town.
"""

from __future__ import annotations

AIRPORTS = ("Airport", "JFK", "Heathrow", "Schiphol", "CDG", "Gardermoen")
__all__ = ["AIRPORTS", "CONSIGNEES", "DECLARATIONS", "EXPORT", "EXPORT_PAGES", "LOCALES", "NOTIFY", "PORTS", "SHEET",
           "SIGNATORIES", "ZERO_NOTES"]

# Each seller's locale: currency and symbol, number grouping, paper, the dates its software prints (numeric
# ones that read either way are printed beside a later date whose day is past 12), the tax each kind charges
# (None: no tax), ports of loading, and the sellers (name, address lines, country line).
LOCALES = {
    "US": {"currency": "USD", "symbol": "$", "numbers": ((",", "."),), "page": "Letter", "home": "United States",
           "record_home": "United States",
           "sheet_dates": ("k:m/d/Y", "k:mm/dd/Y", "k:d-Mon-yy", "k:Month d, Y"),
           "export_dates": ("k:mm/dd/Y", "k:Month d, Y", "k:dd-Mon-Y", "k:Mon d, Y"),
           "tax": "Sales Tax", "sheet_rates": (None, None, "0.0625", "0.07", "0.08875"), "export_rates": (None,),
           "langs": ("en",), "ports": ("Newark, NJ", "New York (JFK)", "Los Angeles, CA", "Savannah, GA"),
           "sellers": (("Harbor Point Imports LLC", "2200 Meadowlands Pkwy, Suite 4", "Secaucus, NJ 07094"),
                       ("Pine & Parcel Trading Co.", "815 Industrial Blvd", "Dallas, TX 75207"),
                       ("Bluebonnet Home Goods Inc.", "4410 Commerce Street", "Fort Worth, TX 76107"))},
    "UK": {"currency": "GBP", "symbol": "£", "numbers": ((",", "."),), "page": "A4", "home": "United Kingdom",
           "record_home": "United Kingdom",
           "sheet_dates": ("k:dd/mm/Y", "k:d-Mon-yy", "k:d Month Y", "k:dd Mon Y"),
           "export_dates": ("k:dd/mm/Y", "k:dd-Mon-Y", "k:d Month Y", "k:dd.mm.Y"),
           "tax": "VAT", "sheet_rates": ("0.20", "0.20", None), "export_rates": (None, None, None, "0.20"),
           "langs": ("en",), "ports": ("Felixstowe", "Southampton", "London Heathrow", "Tilbury"),
           "sellers": (("Wrenfield Homewares Ltd", "Unit 7, Brook Park Industrial Estate", "Derby DE21 4BA"),
                       ("Cobble Lane Gifts Ltd", "14 Station Road", "Stroud GL5 3AP"),
                       ("Marlow & Finch Trading Ltd", "Dock Lane Business Centre", "Ipswich IP3 0BD"))},
    "IE": {"currency": "EUR", "symbol": "€", "numbers": ((",", "."),), "page": "A4", "home": "Ireland",
           "record_home": "EIRE",
           "sheet_dates": ("k:dd/mm/Y", "k:d-Mon-yy", "k:d Month Y"),
           "export_dates": ("k:dd/mm/Y", "k:dd-Mon-Y", "k:d Month Y"),
           "tax": "VAT", "sheet_rates": ("0.23", "0.23", None), "export_rates": (None, None, "0.23"),
           "langs": ("en",), "ports": ("Dublin", "Cork", "Dublin Airport"),
           "sellers": (("Liffey Craft Supplies Ltd", "Unit 12, Ballymount Business Park", "Dublin 12"),
                       ("Corrib Home & Gift Ltd", "Galway Retail Park, Headford Road", "Galway"))},
    "NL": {"currency": "EUR", "symbol": "€", "numbers": ((".", ","), (",", ".")), "page": "A4", "home": "Netherlands",
           "record_home": "Netherlands",
           "sheet_dates": ("k:d-m-Y", "k:dd-mm-Y", "k:d maand Y"),
           "export_dates": ("k:dd-mm-Y", "k:dd-Mon-Y", "k:d Month Y"),
           "tax": "BTW", "sheet_rates": ("0.21", "0.21", None), "export_rates": (None, None, "0.21"),
           "langs": ("nl", "en"), "ports": ("Rotterdam", "Amsterdam Schiphol", "Moerdijk"),
           "sellers": (("Van der Molen Interieur B.V.", "Havenstraat 41", "3024 SK Rotterdam"),
                       ("Geschenkenhuis Brink B.V.", "Industrieweg 8", "3542 AD Utrecht"))},
    "HK": {"currency": "HKD", "symbol": "HK$", "numbers": ((",", "."),), "page": "A4", "home": "Hong Kong",
           "record_home": "Hong Kong",
           "sheet_dates": ("k:dd/mm/Y", "k:d Mon Y", "k:Y-mm-dd"),
           "export_dates": ("k:dd-Mon-Y", "k:Mon d, Y", "k:dd/mm/Y", "k:Y-mm-dd"),
           "tax": "", "sheet_rates": (None,), "export_rates": (None,),
           "langs": ("en",), "ports": ("Hong Kong", "Hong Kong Int'l Airport", "Yantian, China"),
           "sellers": (("Golden Crane Trading Co., Ltd.", "Unit 1208, 12/F, Kwun Tong Plaza",
                        "68 Hoi Bun Road, Kwun Tong, Kowloon"),
                       ("Sun Wah Gifts Manufactory Ltd", "Flat B, 5/F, Wing Fat Industrial Building",
                        "12 Wang Tai Road, Kowloon Bay, Kowloon"))},
    "AU": {"currency": "AUD", "symbol": "$", "numbers": ((",", "."),), "page": "A4", "home": "Australia",
           "record_home": "Australia",
           "sheet_dates": ("k:d/mm/Y", "k:dd/mm/Y", "k:d Month Y"),
           "export_dates": ("k:dd/mm/Y", "k:d Month Y", "k:dd-Mon-Y"),
           "tax": "GST", "sheet_rates": ("0.10", "0.10", "0.10", None), "export_rates": (None,),
           "langs": ("en",), "ports": ("Sydney", "Melbourne", "Brisbane"),
           "sellers": (("Southern Cross Giftware Pty Ltd", "17 Bourke Road", "Alexandria NSW 2015"),
                       ("Wattle & Co. Homewares Pty Ltd", "3/45 Grange Road", "Cheltenham VIC 3192"))},
}
# Ports of discharge by the records' country (as written there); others print the country.
PORTS = {"United Kingdom": ("Felixstowe", "Southampton", "London Heathrow"), "France": ("Le Havre", "Paris CDG"),
         "Germany": ("Hamburg", "Bremerhaven", "Frankfurt"), "Netherlands": ("Rotterdam", "Amsterdam Schiphol"),
         "EIRE": ("Dublin", "Cork"), "Norway": ("Oslo", "Oslo Gardermoen"), "Australia": ("Sydney", "Melbourne")}
CONSIGNEES = ("The Gift Emporium", "Harbour Lights Home Store", "Little Acorn Boutique", "Hearth & Home Interiors",
              "Bright Ideas Trading", "Oak & Ivy Gifts", "Sugar Plum Party Shop", "Lantern House Stores",
              "Sweet Pea Kids", "Juniper & Thyme", "The Paper Kite", "Willow Tree Living")
NOTIFY = ("Northbound Freight Services Ltd", "Bluewater Logistics B.V.", "Orion Air Cargo Ltd",
          "Anchor Customs Brokers", "Meridian Forwarding GmbH")
SIGNATORIES = (("Helen Marsh", "Export Manager"), ("David Okafor", "Shipping Supervisor"),
               ("Wong Ka Ming", "Director"), ("Sarah Lindqvist", "Export Sales"), ("Patrick Byrne", "Logistics"),
               ("Maria Jansen", "Sales Administration"))

# ---------------------------------------------------------------------------------------------------------------
# Commercial and pro forma invoices, as exporters and forwarders print them.
# ---------------------------------------------------------------------------------------------------------------
EXPORT = {
    "title": ("COMMERCIAL INVOICE", "Commercial Invoice", "PRO FORMA INVOICE", "PROFORMA INVOICE", "EXPORT INVOICE",
              "Pro Forma Invoice"),
    "credit_title": ("CREDIT NOTE", "Credit Note", "COMMERCIAL CREDIT NOTE", "EXPORT CREDIT NOTE"),
    "invoice_number": ("Invoice No.", "Invoice Number", "Inv. No.", "Commercial Invoice No."),
    "credit_number": ("Credit Note No.", "Credit No.", "C/N No."),
    "invoice_date": ("Invoice Date", "Date", "Date of Invoice", "Inv. Date"),
    "customer_id": ("Customer No.", "Customer Account", "Client No.", "Buyer's Account No."),
    "order": ("Buyer's Order No.", "Customer PO", "P.O. Number", "Your Order Ref.", "Order No."),
    "incoterms": ("Terms of Delivery", "Incoterms 2010", "Delivery Terms", "Incoterm"),
    "origin": ("Country of Origin", "Country of Origin of Goods", "Origin of Goods"),
    "destination": ("Country of Final Destination", "Country of Destination", "Final Destination"),
    "loading": ("Port of Loading", "Port / Airport of Loading", "Place of Loading", "Port of Export"),
    "discharge": ("Port of Discharge", "Port of Destination", "Place of Delivery"),
    "transport": ("Mode of Transport", "Shipped Via", "Method of Dispatch"),
    "vessel": ("Vessel / Flight", "Vessel / Voyage", "Carrier"),
    "bill": ("B/L No.", "Bill of Lading No.", "Transport Doc. No."),
    "bill_air": ("AWB No.", "Air Waybill No.", "Transport Doc. No."),
    "bill_road": ("CMR No.", "Consignment Note No.", "Transport Doc. No."),
    "shipment": ("Date of Shipment", "Shipment Date", "ETD"),
    "payment": ("Terms of Payment", "Payment Terms"),
    "currency": ("Currency", "Invoice Currency"),
    "shipper": ("Shipper / Exporter", "Exporter", "Shipper", "Seller / Exporter"),
    "consignee": ("Consignee", "Consignee (Ship To)", "Ship To / Consignee"),
    "notify": ("Notify Party", "Notify", "Notify Address"),
    "subtotal": ("Total Value", "Sub-total", "Total Goods Value", "Total Net Value"),
    "subtotal_fob": ("Total FOB Value", "FOB Value"),
    "subtotal_exw": ("Total Ex-Works Value", "Ex-Works Value"),
    "freight": ("Freight", "Freight Charges", "Carriage"),
    "insurance": ("Insurance", "Insurance Premium"),
    "total": ("Total Invoice Value", "TOTAL AMOUNT", "Invoice Total", "Total Amount Due"),
    "total_cif": ("Total CIF Value", "TOTAL CIF VALUE"),
    "total_dap": ("Total DAP Value", "Total Delivered Value"),
    "tax": ("{tax} {rate}", "{tax} @ {rate}"),
    "packages": ("Total Packages", "No. of Packages", "Number of Cartons"),
    "net": ("Total Net Weight", "Net Weight"),
    "gross": ("Total Gross Weight", "Gross Weight"),
    "quantity_total": ("Total Quantity", "Total Qty"),
    "volume": ("Volume", "Total Volume"),
    "marks": ("Shipping Marks", "Marks & Numbers"),
    "words": ("Amount in Words", "Total in Words", "Amount Chargeable (in words)"),
    "reason": ("Reason for Export", "Purpose of Shipment"),
    "signature": ("Authorised Signature", "Signature", "Authorized Signatory"),
    "line_no": ("Item", "No.", "Line", "S/N"),
    "code": ("Article No.", "Part No.", "Item Code", "Product Code", "SKU", "Style No."),
    "description": ("Description of Goods", "Full Description of Goods", "Description", "Goods Description"),
    "hs": ("HS Code", "H.S. Code", "HS Tariff No.", "Commodity Code", "Tariff Code"),
    "hs_us": ("HTS No.", "Schedule B No.", "HTS Code"),
    "origin_col": ("Origin", "COO", "Ctry of Origin"),
    "uom": ("Unit", "UOM", "U/M"),
    "quantity": ("Qty", "Quantity", "Qty."),
    "net_weight": ("Net Wt (kg)", "N.W. kg", "Net Weight kg", "Net kg"),
    "unit_price": ("Unit Price", "Unit Value", "Price/Unit", "Unit Price {code}"),
    "amount": ("Amount", "Total Value", "Line Value", "Amount {code}", "Extended Value"),
}
EXPORT_PAGES = {
    "page_label": ("Page {n} of {m}", "Page {n}/{m}", "PAGE {n} OF {m}", "Pg {n} of {m}"),
    "continued": ("Continued on page {next}", "continued on next page ...", "*** CONTINUED ***",
                  "Carried forward to page {next}"),
    "running": ("{title} No. {number} (continued)", "{number} - page {n}", "{title} {number} / continuation"),
}
TRANSPORT = {"sea": ("Sea Freight", "By Sea", "Ocean (FCL)", "Ocean (LCL)"), "air": ("Air Freight", "By Air"),
             "road": ("Road / Ferry", "Road Freight")}
VESSELS = {"sea": ("MSC ORIANE V.048W", "CMA CGM FIDELIO 0FE3RW1MA", "EVER LIBRA 0211-052W", "MAERSK KENDAL 049E"),
           "air": ("BA0117 / 01DEC", "CX257", "EK009", "QF1"), "road": ("Truck / P&O ferry", "DFDS Seaways")}
PAYMENT = ("T/T 30 days from invoice date", "T/T in advance", "L/C at sight", "CAD (cash against documents)",
           "Net 30 days", "100% prepayment")
DECLARATIONS = (
    "We hereby certify that this invoice shows the actual price of the goods described, that all particulars are "
    "true and correct, and that the goods are of the origin stated.",
    "We hereby certify that the information on this invoice is true and correct and that the contents of this "
    "shipment are as stated above.",
    "I declare that all the information contained in this invoice is true and correct to the best of my knowledge.",
    "The exporter of the products covered by this document declares that, except where otherwise clearly "
    "indicated, these products are of preferential origin.",
)
ZERO_NOTES = {
    "UK": ("Zero-rated for VAT: export of goods.", "VAT zero-rated export (VAT Notice 703)."),
    "IE": ("Zero-rated export: VAT not charged.", "VAT 0%: exports outside the State."),
    "NL": ("BTW 0%: export of goods (art. 9 Wet OB).", "Zero-rated export: no Dutch VAT charged."),
    "AU": ("GST-free export.", "GST-free export of goods (s38-185)."),
    "US": ("No sales tax: goods for export.", "Export sale, not subject to sales tax."),
    "HK": ("",),
}
ORIGIN_NAMES = {"GB": "United Kingdom", "CN": "China", "IN": "India", "US": "United States", "HK": "Hong Kong",
                "PT": "Portugal", "NL": "Netherlands", "IE": "Ireland", "AU": "Australia", "VN": "Vietnam"}
ORIGINS = {"US": ("CN", "CN", "US", "IN"), "UK": ("GB", "GB", "CN", "IN"), "IE": ("IE", "CN", "GB"),
           "NL": ("NL", "CN", "PT"), "HK": ("CN", "CN", "CN", "HK", "VN"), "AU": ("AU", "CN", "CN")}
CURRENCY_WORDS = {"USD": ("US DOLLARS", "CENTS"), "GBP": ("POUNDS STERLING", "PENCE"), "EUR": ("EUROS", "CENTS"),
                  "HKD": ("HONG KONG DOLLARS", "CENTS"), "AUD": ("AUSTRALIAN DOLLARS", "CENTS")}

# ---------------------------------------------------------------------------------------------------------------
# Spreadsheet invoice templates (Excel, LibreOffice Calc, Google Sheets), English and Dutch.
# ---------------------------------------------------------------------------------------------------------------
SHEET = {
    "en": {
        "title": ("INVOICE", "Invoice", "SALES INVOICE", "INVOICE"),
        "title_tax": ("TAX INVOICE", "Tax Invoice"),  # AU with GST; UK with VAT: VAT INVOICE
        "credit_title": ("CREDIT NOTE", "Credit Note", "CREDIT MEMO"),
        "invoice_number": ("INVOICE #", "Invoice #", "Invoice No.", "INVOICE NO.", "Invoice Number"),
        "credit_number": ("CREDIT #", "Credit Note #", "Credit Note No.", "CREDIT MEMO #"),
        "invoice_date": ("DATE", "Date", "Invoice Date", "INVOICE DATE"),
        "due_date": ("DUE DATE", "Due Date", "Payment Due"),
        "customer_id": ("CUSTOMER ID", "Customer ID", "Account #", "Customer No.", "Cust #"),
        "po": ("P.O. #", "PO Number", "Your Ref."),
        "terms": ("TERMS", "Terms", "Payment Terms"),
        "bill_to": ("BILL TO", "Bill To:", "Invoice To", "CUSTOMER"),
        "ship_to": ("SHIP TO", "Ship To:", "Deliver To"),
        "subtotal": ("SUBTOTAL", "Subtotal", "Sub Total", "Net Total"),
        "tax_rate": ("TAX RATE", "Tax Rate", "{tax} Rate"),
        "tax": ("TAX", "{tax}", "{tax} {rate}", "{tax} @ {rate}"),
        "shipping": ("SHIPPING", "S & H", "Shipping & Handling", "Delivery"),
        "total": ("TOTAL", "Total", "BALANCE DUE", "Total Due", "AMOUNT DUE", "TOTAL {code}", "Total ({code})"),
        "line_no": ("#", "No.", "Line", "Item"),
        "code": ("ITEM #", "Item Code", "SKU", "Product Code", "Stock Code", "Part #"),
        "description": ("DESCRIPTION", "Description", "Item Description", "Product"),
        "uom": ("UNIT", "Unit", "UoM"),
        "quantity": ("QTY", "Qty", "Quantity", "Units"),
        "unit_price": ("UNIT PRICE", "Unit Price", "Price", "Rate", "Price Each"),
        "amount": ("AMOUNT", "Amount", "LINE TOTAL", "Line Total"),
        "thanks": ("Thank you for your business!", "Thank you for your order.", "We appreciate your business."),
        "questions": ("If you have any questions about this invoice, please contact",
                      "Questions? Call or email"),
        "payable": ("Make all checks payable to", "Please make payment to", "Pay by bank transfer to"),
        "terms_text": ("Net {days}", "{days} days", "Due in {days} days"),
        "cash": ("Cash sale", "Walk-in customer", "Counter sale"),
        "unit_words": ("each", "pcs", "ea"),
        "page_label": {"excel": ("Page {n} of {m}", "Page {n}", "Page {n} of {m}"),
                       "calc": ("Page {n}", "Page {n} / {m}"), "sheets": ("{n} of {m}", "Page {n} of {m}")},
        "file": ("Invoice {number}.xlsx", "INV-{number}.xlsx", "{number}.xlsx", "Invoice_{number}_final.xlsx"),
        "credit_file": ("Credit note {number}.xlsx", "{number}.xlsx", "CN-{number}.xlsx"),
        "tab": ("Invoice", "Sheet1", "Invoice {number}", "{number}"),
    },
    "nl": {
        "title": ("FACTUUR", "Factuur"),
        "title_tax": ("FACTUUR", "Factuur"),
        "credit_title": ("CREDITFACTUUR", "Creditnota"),
        "invoice_number": ("Factuurnummer", "Factuurnr.", "FACTUURNUMMER"),
        "credit_number": ("Creditnotanummer", "Creditfactuurnr."),
        "invoice_date": ("Factuurdatum", "Datum", "FACTUURDATUM"),
        "due_date": ("Vervaldatum", "Uiterste betaaldatum"),
        "customer_id": ("Klantnummer", "Debiteurnummer", "Klantnr."),
        "po": ("Uw referentie", "Ordernummer"),
        "terms": ("Betalingstermijn", "Betaaltermijn"),
        "bill_to": ("Factuuradres", "Aan:", "KLANT"),
        "ship_to": ("Afleveradres",),
        "subtotal": ("Subtotaal", "Totaal excl. BTW", "SUBTOTAAL"),
        "tax_rate": ("BTW-tarief",),
        "tax": ("BTW", "BTW {rate}", "BTW {rate}"),
        "shipping": ("Verzendkosten", "Vracht"),
        "total": ("Totaal", "Totaal incl. BTW", "Te betalen", "TOTAAL"),
        "line_no": ("#", "Nr.", "Regel"),
        "code": ("Artikelnr.", "Artikelcode", "Code"),
        "description": ("Omschrijving", "OMSCHRIJVING", "Artikel"),
        "uom": ("Eenheid",),
        "quantity": ("Aantal", "AANTAL"),
        "unit_price": ("Prijs", "Stukprijs", "Prijs per stuk"),
        "amount": ("Bedrag", "Regeltotaal", "BEDRAG"),
        "thanks": ("Bedankt voor uw bestelling!", "Hartelijk dank voor uw opdracht."),
        "questions": ("Vragen over deze factuur? Neem contact op met", "Voor vragen:"),
        "payable": ("Gelieve te betalen aan", "Betaling graag op rekening van"),
        "terms_text": ("{days} dagen", "Binnen {days} dagen"),
        "cash": ("Contante verkoop", "Kassaverkoop"),
        "unit_words": ("stuk", "st."),
        "page_label": {"excel": ("Pagina {n} van {m}", "Pagina {n}"), "calc": ("Pagina {n}", "Pagina {n} / {m}"),
                       "sheets": ("{n} van {m}",)},
        "file": ("Factuur {number}.xlsx", "{number}.xlsx", "factuur_{number}.xlsx"),
        "credit_file": ("Creditnota {number}.xlsx", "{number}.xlsx"),
        "tab": ("Factuur", "Blad1", "Factuur {number}", "{number}"),
    },
}
SOFTWARE = {"excel": "xlsx", "calc": "ods", "sheets": ""}  # the file name's extension (Sheets: a workbook title)
STREET_NOTES = ("Attn: Accounts Payable", "Attn: Purchasing", "c/o Goods In", "Attn: Receiving")
