"""Character n-gram TF-IDF (scikit-learn's ``char_wb`` features), computed word by word.

``char_wb`` n-grams never cross a word boundary, so a document's n-gram counts are the sum, over
its words, of each word's n-gram counts. The benchmark's ~32k prompts use only a few thousand
distinct words (long prompts that share most of their text), so counting words per document and
multiplying by a distinct-word x n-gram matrix gives the same matrix as ``TfidfVectorizer(
analyzer="char_wb")`` about an order of magnitude faster than enumerating every n-gram of every
prompt. ``tests/baselines/test_ngrams.py`` checks the two agree on random text.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

import numpy as np
import scipy.sparse as sp
from sklearn.feature_extraction.text import TfidfTransformer

_SPACES = re.compile(r"\s\s+")


def words(text: str) -> list[str]:
    """Lower-cased words as ``char_wb`` sees them (runs of white space collapse first)."""
    return _SPACES.sub(" ", text.lower()).split()


def word_ngrams(word: str, low: int, high: int) -> list[str]:
    """The n-grams of one word padded with a space on each side, n = low..high; once n reaches
    the padded word's length it counts once, as itself, and larger n are skipped (``char_wb``
    semantics)."""
    padded = f" {word} "
    out: list[str] = []
    for n in range(low, high + 1):
        if len(padded) <= n:
            out.append(padded)
            break
        out.extend(padded[i : i + n] for i in range(len(padded) - n + 1))
    return out


class CharNgramTfidf:
    """``fit``/``transform`` like ``TfidfVectorizer(analyzer="char_wb", sublinear_tf=True)``.

    ``max_features`` keeps the most frequent n-grams of the training corpus (ties by n-gram),
    as sklearn's does up to the order of ties.
    """

    def __init__(self, ngram: tuple[int, int] = (3, 5), max_features: int | None = None) -> None:
        self.ngram = ngram
        self.max_features = max_features
        self.vocabulary: dict[str, int] = {}
        self._rows: dict[str, dict[int, int]] = {}  # word -> its in-vocabulary n-gram counts
        self._idf = TfidfTransformer(sublinear_tf=True)

    @staticmethod
    def _word_counts(docs: Sequence[str]) -> tuple[sp.csr_matrix, list[str]]:
        """Documents x distinct words (in first-seen order) count matrix, and those words."""
        index: dict[str, int] = {}
        indptr, indices, data = [0], list[int](), list[int]()
        for doc in docs:
            for word, count in Counter(words(doc)).items():
                indices.append(index.setdefault(word, len(index)))
                data.append(count)
            indptr.append(len(indices))
        shape = (len(docs), len(index))
        matrix = sp.csr_matrix((np.asarray(data, np.float32), indices, indptr), shape=shape)
        return matrix, list(index)

    def _ngram_matrix(self, vocab_words: list[str]) -> sp.csr_matrix:
        indptr, indices, data = [0], list[int](), list[int]()
        for word in vocab_words:
            row = self._rows.get(word)
            if row is None:
                counts = Counter(word_ngrams(word, *self.ngram))
                row = {self.vocabulary[g]: c for g, c in counts.items() if g in self.vocabulary}
                self._rows[word] = row
            indices.extend(row)
            data.extend(row.values())
            indptr.append(len(indices))
        shape = (len(vocab_words), len(self.vocabulary))
        return sp.csr_matrix((np.asarray(data, np.float32), indices, indptr), shape=shape)

    def _counts(self, docs: Sequence[str]) -> sp.csr_matrix:
        per_word, vocab_words = self._word_counts(docs)
        counts = per_word @ self._ngram_matrix(vocab_words)
        counts.sort_indices()
        return counts

    def fit_transform(self, docs: Sequence[str]) -> sp.csr_matrix:
        per_word, vocab_words = self._word_counts(docs)
        totals: Counter[str] = Counter()
        frequency = np.asarray(per_word.sum(axis=0)).ravel()
        for word, times in zip(vocab_words, frequency, strict=True):
            for gram, count in Counter(word_ngrams(word, *self.ngram)).items():
                totals[gram] += int(count * times)
        kept = sorted(totals)
        if self.max_features is not None and len(kept) > self.max_features:
            kept = sorted(sorted(kept, key=lambda g: -totals[g])[: self.max_features])
        self.vocabulary = {gram: i for i, gram in enumerate(kept)}
        self._rows = {}
        counts = per_word @ self._ngram_matrix(vocab_words)
        counts.sort_indices()
        return self._idf.fit_transform(counts).astype(np.float32)

    def transform(self, docs: Sequence[str]) -> sp.csr_matrix:
        if not self.vocabulary:
            raise ValueError("CharNgramTfidf.transform before fit_transform")
        return self._idf.transform(self._counts(docs)).astype(np.float32)
