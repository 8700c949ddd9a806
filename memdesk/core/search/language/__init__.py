"""Language knowledge: cutting mixed Chinese/English text, pinyin, scripts, the thesaurus,
stop words and the rules that read a question. Imports only core.domain and the libraries.
"""
