"""The word-factored char n-gram TF-IDF equals scikit-learn's ``char_wb`` TfidfVectorizer."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.feature_extraction.text import TfidfVectorizer

from reasonbench.baselines.ngrams import CharNgramTfidf, word_ngrams

TEXT = st.text(alphabet="abcAB é\n\t.,-", min_size=0, max_size=40)


def _reference(ngram: tuple[int, int]) -> TfidfVectorizer:
    return TfidfVectorizer(analyzer="char_wb", ngram_range=ngram, sublinear_tf=True)


@settings(max_examples=60, deadline=None)
@given(
    train=st.lists(TEXT, min_size=1, max_size=8),
    test=st.lists(TEXT, min_size=1, max_size=5),
    ngram=st.sampled_from([(1, 1), (2, 3), (3, 5)]),
)
def test_matches_sklearn_char_wb(train: list[str], test: list[str], ngram: tuple[int, int]) -> None:
    reference = _reference(ngram)
    try:
        expected_train = reference.fit_transform(train)
    except ValueError:  # sklearn: empty vocabulary (no n-gram in any document)
        return
    ours = CharNgramTfidf(ngram)
    got_train = ours.fit_transform(train)
    assert ours.vocabulary == reference.vocabulary_
    np.testing.assert_allclose(got_train.toarray(), expected_train.toarray(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(
        ours.transform(test).toarray(), reference.transform(test).toarray(), rtol=1e-5, atol=1e-6
    )


def test_short_word_counts_once() -> None:
    # " a " has length 3: it is its own (single) n-gram and larger n are skipped
    assert word_ngrams("a", 3, 5) == [" a "]
    assert word_ngrams("ab", 3, 5) == [" ab", "ab ", " ab "]
    assert word_ngrams("abc", 3, 4) == [" ab", "abc", "bc ", " abc", "abc "]


def test_max_features_keeps_the_most_frequent() -> None:
    ours = CharNgramTfidf((1, 1), max_features=2)
    ours.fit_transform(["aaa b", "aa c"])
    assert set(ours.vocabulary) == {"a", " "}


def test_transform_before_fit_is_refused() -> None:
    try:
        CharNgramTfidf().transform(["x"])
    except ValueError as error:
        assert "before fit" in str(error)
    else:
        raise AssertionError("transform before fit must fail")
