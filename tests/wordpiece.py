"""A BERT-style WordPiece tokenizer.json over a given vocabulary, for the models tests and
benches build themselves (tests/core/embed/conftest.py's tiny model, bench/bge_shaped.py)."""

from __future__ import annotations

from pathlib import Path


def write_wordpiece(path: Path, tokens: list[str]) -> None:
    """``tokens`` in id order; it must hold [UNK], [CLS] and [SEP]. Lower-cases, splits CJK
    characters and punctuation apart, and wraps a text as [CLS] … [SEP]."""
    from tokenizers import Tokenizer, normalizers, pre_tokenizers, processors
    from tokenizers.models import WordPiece

    vocab = {token: i for i, token in enumerate(tokens)}
    tok = Tokenizer(WordPiece(vocab, unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]",
        pair="[CLS] $A [SEP] $B:1 [SEP]:1",
        special_tokens=[("[CLS]", vocab["[CLS]"]), ("[SEP]", vocab["[SEP]"])],
    )
    tok.save(str(path))
